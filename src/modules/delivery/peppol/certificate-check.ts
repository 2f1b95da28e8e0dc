/**
 * The certificate port discovery (and later AS4) asks: is this a certificate of the Peppol PKI for
 * this purpose? `smp`: an SMP's signing certificate (chain to PEPPOL_SMP_TRUST); `ap`: an Access
 * Point's certificate (chain to PEPPOL_AP_TRUST). Validity period and revocation are the PKI's
 * business too. The PKI (./pki/, `PeppolPki.check`) implements it; tests may pass a double.
 */
import type { X509Certificate } from 'node:crypto';

export type CertificatePurpose = 'smp' | 'ap';

/** `reason`: a short code (e.g. `untrusted_issuer`, `expired`, `revoked`); `message`: words for people. */
export type CertificateVerdict = { ok: true } | { ok: false; reason: string; message: string };

export type CheckCertificate = (certificate: X509Certificate, purpose: CertificatePurpose) => Promise<CertificateVerdict>;
