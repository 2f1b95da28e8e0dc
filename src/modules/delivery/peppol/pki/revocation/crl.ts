import type { X509Certificate } from 'node:crypto';
import { X509Certificate as ParsedCertificate, X509Crl } from '../x509.ts';
import { RevocationFetchError, type RevocationFetch } from './bounded-fetch.ts';
import type { BoundedCache } from './bounded-cache.ts';
import type { SourceAnswer } from './source-answer.ts';

/** Peppol's CAs publish small CRLs; a public CA's can reach megabytes. */
const MAX_CRL_BYTES = 10 * 1024 * 1024;

/** A CRL downloaded and verified, kept until its nextUpdate. */
export type CrlCache = BoundedCache<X509Crl>;

/**
 * Looks the certificate up in the CRL at `url` (its CRL distribution point): fetched once per
 * nextUpdate, its signature verified with the issuer's key (@peculiar/x509), its issuer name the
 * certificate's issuer name.
 */
export async function askCrl(certificate: X509Certificate, issuer: X509Certificate, url: string, fetch: RevocationFetch, cache: CrlCache, at: Date, defaultTtlMs: number): Promise<SourceAnswer> {
  const key = `${url} ${issuer.fingerprint256}`;
  let crl = cache.get(key, at.getTime());
  if (!crl) {
    let bytes: Uint8Array;
    try {
      bytes = await fetch({ url, method: 'GET', accept: 'application/pkix-crl, application/x-pkcs7-crl;q=0.5, */*;q=0.1' });
    } catch (error) {
      return { status: 'unknown', why: `CRL ${error instanceof RevocationFetchError ? error.message : 'failed'}` };
    }
    if (bytes.byteLength > MAX_CRL_BYTES) return { status: 'unknown', why: 'CRL too large' };
    try {
      crl = new X509Crl(new Uint8Array(bytes));
    } catch {
      return { status: 'unknown', why: 'CRL does not parse' };
    }
    const issuerParsed = new ParsedCertificate(issuer.raw);
    if (crl.issuer !== issuerParsed.subject || !(await crl.verify({ publicKey: issuerParsed }).catch(() => false))) {
      return { status: 'unknown', why: 'CRL not signed by the certificate\'s issuer' };
    }
    if (crl.nextUpdate && crl.nextUpdate.getTime() < at.getTime()) return { status: 'unknown', why: 'CRL is stale (past its nextUpdate)' };
    cache.set(key, crl, crl.nextUpdate?.getTime() ?? at.getTime() + defaultTtlMs);
  }
  const until = crl.nextUpdate?.getTime() ?? null;
  return { status: crl.findRevoked(new ParsedCertificate(certificate.raw)) ? 'revoked' : 'good', until };
}
