import { X509Certificate as ParsedCertificate } from './x509.ts';
import type { ApIdentity } from './identity.ts';

/** Below this many days to its certificate's expiry the service reports `degraded`: time to renew. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

/** The `peppol` field of GET /api/v1/health. */
export type PeppolHealth =
  | { network: 'sandbox' }
  | { network: 'as4'; certificate: { subject: string; not_after: string; days_to_expiry: number } };

/**
 * What health says of the Peppol network: which one, and for AS4 our certificate's subject and
 * whole days left (negative once expired). `degraded` when fewer than 30 remain.
 */
export function peppolHealth(identity: ApIdentity | null, now: Date): { peppol: PeppolHealth; degraded: boolean } {
  if (!identity) return { peppol: { network: 'sandbox' }, degraded: false };
  const notAfter = new ParsedCertificate(identity.certificate.raw).notAfter;
  const days = Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS);
  return {
    peppol: { network: 'as4', certificate: { subject: identity.subject, not_after: notAfter.toISOString(), days_to_expiry: days } },
    degraded: days < EXPIRY_WARNING_DAYS,
  };
}
