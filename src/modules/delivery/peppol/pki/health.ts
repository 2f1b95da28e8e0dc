import { X509Certificate as ParsedCertificate } from './x509.ts';
import type { TrustSource } from './anchors.ts';
import type { ApIdentity } from './identity.ts';
import { commonNameOf, subjectOf } from './names.ts';
import type { TrustAnchors } from './trust.ts';
import type { CertificatePurpose } from './verdict.ts';

/** Below this many days to its certificate's expiry the service reports `degraded`: time to renew. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

/** Which CAs are trusted for one purpose: `file` (PEPPOL_AP_TRUST / PEPPOL_SMP_TRUST) or the shipped `peppol-test` / `peppol-production`, and the issuing CAs' CNs. */
export interface TrustHealth {
  source: TrustSource['name'];
  issuing_cas: string[];
}

/** The `peppol` field of GET /api/v1/health. */
export type PeppolHealth =
  | { network: 'sandbox' }
  | {
      network: 'as4';
      certificate: { subject: string; not_after: string; days_to_expiry: number };
      trust: { ap: TrustHealth; smp: TrustHealth };
    };

export interface HealthInput {
  identity: ApIdentity;
  trust: Record<CertificatePurpose, TrustAnchors>;
  trustSource: Record<CertificatePurpose, TrustSource>;
}

/**
 * What health says of the Peppol network: which one, and for AS4 our certificate's subject and
 * whole days left (negative once expired), and the trust in use. `degraded` when fewer than 30 remain.
 */
export function peppolHealth(pki: HealthInput | null, now: Date): { peppol: PeppolHealth; degraded: boolean } {
  if (!pki) return { peppol: { network: 'sandbox' }, degraded: false };
  const { identity } = pki;
  const notAfter = new ParsedCertificate(identity.certificate.raw).notAfter;
  const days = Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS);
  const trust = (purpose: CertificatePurpose): TrustHealth => ({
    source: pki.trustSource[purpose].name,
    issuing_cas: pki.trust[purpose].issuingCas.map((ca) => commonNameOf(ca) ?? subjectOf(ca)),
  });
  return {
    peppol: {
      network: 'as4',
      certificate: { subject: identity.subject, not_after: notAfter.toISOString(), days_to_expiry: days },
      trust: { ap: trust('ap'), smp: trust('smp') },
    },
    degraded: days < EXPIRY_WARNING_DAYS,
  };
}
