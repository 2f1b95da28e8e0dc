import type { X509Certificate } from 'node:crypto';
import { BoundedCache } from './bounded-cache.ts';
import type { RevocationFetch } from './bounded-fetch.ts';
import { askCrl, type CrlCache } from './crl.ts';
import { askOcsp } from './ocsp.ts';
import type { SourceAnswer } from './source-answer.ts';
import { revocationSourcesOf } from './sources.ts';

export type RevocationStatus =
  /** `no_source`: the certificate names no OCSP responder and no CRL (nothing to ask) */
  | { status: 'good' | 'no_source' }
  | { status: 'revoked'; source: 'ocsp' | 'crl' }
  /** nothing could be learned: every source unreachable or its answer unusable */
  | { status: 'unknown'; why: string };

/**
 * Asks the revocation status of a certificate, given the path above it from the trust bundle (its
 * issuer first); answers are cached until their nextUpdate.
 */
export type RevocationLookup = (certificate: X509Certificate, issuers: readonly X509Certificate[], at: Date) => Promise<RevocationStatus>;

export interface RevocationLookupOptions {
  fetch: RevocationFetch;
  /** answers and CRLs kept at most (each kind) */
  maxEntries?: number;
  /** how long an answer without nextUpdate is kept */
  defaultTtlMs?: number;
  /** how long "unreachable" is kept, so a dead responder is not asked on every message */
  unknownTtlMs?: number;
}

/**
 * OCSP when the certificate names a responder (Peppol's CAs do); its CRL when it names no
 * responder, or the responder could not answer. Good and revoked answers are cached until their
 * nextUpdate, unknown ones briefly.
 */
export function revocationLookup(options: RevocationLookupOptions): RevocationLookup {
  const maxEntries = options.maxEntries ?? 10_000;
  const defaultTtlMs = options.defaultTtlMs ?? 3_600_000;
  const unknownTtlMs = options.unknownTtlMs ?? 60_000;
  const answers = new BoundedCache<RevocationStatus>(maxEntries);
  const crls: CrlCache = new BoundedCache(Math.min(maxEntries, 100));

  return async (certificate, issuers, at) => {
    const [issuer] = issuers;
    if (!issuer) return { status: 'unknown', why: 'no issuer' };
    const key = `${issuer.fingerprint256} ${certificate.serialNumber}`;
    const cached = answers.get(key, at.getTime());
    if (cached) return cached;
    const sources = revocationSourcesOf(certificate);
    if (sources.ocsp.length === 0 && sources.crl.length === 0) return { status: 'no_source' };

    const whys: string[] = [];
    const attempts: { source: 'ocsp' | 'crl'; ask: () => Promise<SourceAnswer> }[] = [
      ...sources.ocsp.map((url) => ({ source: 'ocsp' as const, ask: () => askOcsp(certificate, issuers, url, options.fetch, at) })),
      ...sources.crl.map((url) => ({ source: 'crl' as const, ask: () => askCrl(certificate, issuer, url, options.fetch, crls, at, defaultTtlMs) })),
    ];
    for (const attempt of attempts) {
      const answer = await attempt.ask();
      if (answer.status === 'unknown') {
        whys.push(answer.why);
        continue;
      }
      const status: RevocationStatus = answer.status === 'revoked' ? { status: 'revoked', source: attempt.source } : { status: 'good' };
      answers.set(key, status, answer.until ?? at.getTime() + defaultTtlMs);
      return status;
    }
    const unknown: RevocationStatus = { status: 'unknown', why: whys.join('; ') };
    answers.set(key, unknown, at.getTime() + unknownTtlMs);
    return unknown;
  };
}
