import type { X509Certificate } from 'node:crypto';
import type { CertificateCheck } from './certificate-check.ts';
import type { CertificatePurpose } from './verdict.ts';

/**
 * The check in the shape the AS4 reader asks for (`trustSender`: null when trusted, else why
 * not): a refused sender's certificate becomes EBMS:0101 FailedAuthentication with this reason.
 */
export function distrustOf(check: CertificateCheck, purpose: CertificatePurpose, now: () => Date): (certificate: X509Certificate) => Promise<string | null> {
  return async (certificate) => {
    const verdict = await check(certificate, purpose, now());
    return verdict.ok ? null : `${verdict.reason}: ${verdict.message}`;
  };
}
