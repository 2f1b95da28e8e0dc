// Our Access Point's PKI (issue 38, item 4): identity, trust anchors, certificate checks, revocation.
import type { Logger } from 'pino';
import { ConfigRefused, type PeppolConfig } from '../../../../platform/config.ts';
import { shippedAnchorsFile, trustSourceOf, type TrustSource } from './anchors.ts';
import { certificateCheck, type CertificateCheck } from './certificate-check.ts';
import { loadApIdentity, type ApIdentity } from './identity.ts';
import { boundedFetch, type RevocationFetch } from './revocation/bounded-fetch.ts';
import { revocationLookup } from './revocation/revocation.ts';
import { loadTrustAnchors, type TrustAnchors } from './trust.ts';
import type { CertificatePurpose } from './verdict.ts';

export { certificateCheck, type CertificateCheck, type CertificateCheckDeps } from './certificate-check.ts';
export { distrustOf } from './distrust.ts';
export { loadApIdentity, type ApIdentity } from './identity.ts';
export { commonNameOf, subjectOf } from './names.ts';
export { EXPIRY_WARNING_DAYS, peppolHealth, type PeppolHealth } from './health.ts';
export { shippedAnchorsFile, type TrustSource } from './anchors.ts';
export { boundedFetch, RevocationFetchError, type BoundedFetchOptions, type RevocationFetch, type RevocationRequest } from './revocation/bounded-fetch.ts';
export { revocationLookup, type RevocationLookup, type RevocationStatus } from './revocation/revocation.ts';
export { loadTrustAnchors, trustAnchorsOf, type TrustAnchors } from './trust.ts';
export type { CertificatePurpose, CertificateRefusal, CertificateVerdict } from './verdict.ts';

/** What PEPPOL_NETWORK=as4 runs with: who we are, whom we trust, and how a peer's certificate is checked. */
export interface PeppolPki {
  identity: ApIdentity;
  trust: Record<CertificatePurpose, TrustAnchors>;
  /** where each trust came from: the operator's file (PEPPOL_AP_TRUST, PEPPOL_SMP_TRUST) or the shipped Peppol CAs of a stage */
  trustSource: Record<CertificatePurpose, TrustSource>;
  /** checks a peer's certificate (an AS4 sender's, a receiver's from its SMP entry, an SMP's signing certificate) */
  check: CertificateCheck;
}

export interface PeppolPkiDeps {
  log: Logger;
  /** how OCSP responders and CRLs are fetched; a bounded fetch to public addresses by default */
  fetch?: RevocationFetch;
}

/** Revocation sources answer in well under this; a dead one must not hold a message up for long. */
const REVOCATION_TIMEOUT_MS = 5_000;
const REVOCATION_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Loads the identity and both trust bundles at start (null in the sandbox, which needs none).
 * Anything missing or unreadable is a ConfigRefused: the service does not start.
 */
export async function loadPeppolPki(config: PeppolConfig, deps: PeppolPkiDeps): Promise<PeppolPki | null> {
  if (config.network === 'sandbox') return null;
  if (!config.identity) throw new Error('PEPPOL_NETWORK=as4 without identity: loadConfig should have refused it');
  const identity = await loadApIdentity(config.identity);
  const trustSource = { ap: trustSourceOf(config.apTrustFile, config.stage), smp: trustSourceOf(config.smpTrustFile, config.stage) };
  const trust = {
    ap: loadTrustAnchors('ap', config.apTrustFile ?? shippedAnchorsFile(config.stage, 'ap')),
    smp: loadTrustAnchors('smp', config.smpTrustFile ?? shippedAnchorsFile(config.stage, 'smp')),
  };
  const fetch = deps.fetch ?? boundedFetch({ timeoutMs: REVOCATION_TIMEOUT_MS, maxBytes: REVOCATION_MAX_BYTES, allowLoopback: false });
  const check = certificateCheck({ trust, revocation: config.revocation, lookup: revocationLookup({ fetch }), log: deps.log });
  const own = await check(identity.certificate, 'ap', new Date());
  // with the shipped CAs, a certificate of another issuer is a wrong stage, not a peer's problem:
  // every message would be refused both ways, so the service does not start
  if (!own.ok && own.reason === 'untrusted_issuer' && trustSource.ap.kind === 'shipped') {
    const other = config.stage === 'test' ? 'production' : 'test';
    throw new ConfigRefused(`our Access Point certificate (${identity.subject}) is not issued by the Peppol ${config.stage} Access Point CA that PEPPOL_STAGE=${config.stage} trusts: set PEPPOL_STAGE=${other} for a ${other} certificate, or PEPPOL_AP_TRUST to the CA bundle that issued it`);
  }
  if (!own.ok) deps.log.warn({ reason: own.reason, detail: own.message }, 'our own Access Point certificate does not pass the checks peers make: they will refuse our messages');
  deps.log.info({ ap_trust: trustSource.ap.name, smp_trust: trustSource.smp.name }, 'Peppol trust anchors loaded');
  return { identity, trust, trustSource, check };
}

