import type { CertificatePurpose } from '../certificate-check.ts';

/**
 * What a certificate check answers: trusted, or one reason a caller can act on (an AS4 receiver
 * maps any refusal to EBMS:0101, discovery to "not a Peppol Access Point"), with a sentence for logs
 * and error messages. The sentence names the certificate's subject, never a key or a URL.
 */
export type CertificateRefusal =
  /** no chain from it to a CA of the purpose's bundle (another CA, a broken signature, a missing link) */
  | 'untrusted_issuer'
  /** it, or a CA certificate on its path, is past notAfter */
  | 'expired'
  /** it, or a CA certificate on its path, is before notBefore */
  | 'not_yet_valid'
  /** a certificate on the path that signs another is not a CA (basicConstraints cA) */
  | 'not_a_ca'
  /** trusted, but not a Peppol Access Point certificate: not issued by an Access Point CA of the bundle, or itself a CA */
  | 'not_access_point'
  /** its OCSP responder or CRL says it is revoked */
  | 'revoked'
  /** PEPPOL_REVOCATION=hard and its status could not be learned (unreachable, unverifiable answer) */
  | 'revocation_unknown';

/** `ap`: an Access Point's certificate (PEPPOL_AP_TRUST); `smp`: an SMP's signing certificate (PEPPOL_SMP_TRUST); discovery's port (../certificate-check.ts) names them. */
export type { CertificatePurpose };

export type CertificateVerdict =
  | { ok: true; subject: string; notAfter: Date }
  | { ok: false; reason: CertificateRefusal; message: string };

export function refused(reason: CertificateRefusal, message: string): CertificateVerdict {
  return { ok: false, reason, message };
}
