import type { X509Certificate } from 'node:crypto';
import { ConfigRefused } from '../../../../platform/config.ts';
import { certificatesInPem, readConfiguredFile } from './pem.ts';
import type { CertificatePurpose } from './verdict.ts';

/**
 * The CA certificates trusted for one purpose (PEPPOL_AP_TRUST, PEPPOL_SMP_TRUST, else the shipped
 * ones of PEPPOL_STAGE in anchors/): the issuing CAs (`PEPPOL ACCESS POINT CA - G3`,
 * `PEPPOL SERVICE METADATA PUBLISHER CA - G3`, their TEST twins) and the roots above them. A certificate is trusted for the purpose when its path ends in
 * one of them; the peer's own intermediates are never taken from the message.
 */
export interface TrustAnchors {
  purpose: CertificatePurpose;
  /** every certificate of the bundle */
  certificates: readonly X509Certificate[];
  /**
   * The issuing CAs: the bundle's CA certificates that are not self-signed. For `ap`, a Peppol
   * Access Point certificate is one issued directly by one of these (as phase4 and oxalis decide it:
   * the issuer is one of the configured AP CAs).
   */
  issuingCas: readonly X509Certificate[];
}

const VARIABLE: Record<CertificatePurpose, string> = { ap: 'PEPPOL_AP_TRUST', smp: 'PEPPOL_SMP_TRUST' };

export function loadTrustAnchors(purpose: CertificatePurpose, file: string): TrustAnchors {
  const variable = VARIABLE[purpose];
  return trustAnchorsOf(purpose, certificatesInPem(variable, file, readConfiguredFile(variable, file).toString('utf8')), `${variable} (${file})`);
}

/** The same from certificates already parsed; `source` names them in a refusal. */
export function trustAnchorsOf(purpose: CertificatePurpose, certificates: X509Certificate[], source: string): TrustAnchors {
  if (certificates.length === 0) throw new ConfigRefused(`${source} holds no PEM certificate`);
  const notCa = certificates.find((c) => !c.ca);
  if (notCa) throw new ConfigRefused(`${source}: ${notCa.subject.replaceAll('\n', ', ')} is not a CA certificate`);
  const issuingCas = certificates.filter((c) => !selfSigned(c));
  if (issuingCas.length === 0) throw new ConfigRefused(`${source} holds only root certificates: add the issuing CA (the ${purpose === 'ap' ? 'Access Point' : 'SMP'} CA)`);
  return { purpose, certificates, issuingCas };
}

/** Self-issued and verified with its own key: a root. */
export function selfSigned(certificate: X509Certificate): boolean {
  return certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey);
}
