import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The two webhook signatures, both sides: the sender signs, the consumer (our test receiver, and
 * the snippet in the README's webhook guide) verifies. Bodies are signed as sent: UTF-8 bytes.
 */
export type RawBody = string | Uint8Array;

export const SVC_TOLERANCE_SECONDS = 300;
const LEGACY_PREFIX = 'sha256=';

/**
 * `svc-signature: t=<unix>,v1=<hex>`: HMAC-SHA256 over `${t}.${rawBody}` keyed with the plaintext
 * `whsec_…` secret (all of it, prefix included). During a rotation overlap the previous secret signs
 * too and its v1 follows, so a consumer holding either secret verifies.
 */
export function svcSignature(secret: string, timestamp: number, rawBody: RawBody, previousSecret?: string): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`timestamp must be whole unix seconds, got ${timestamp}`);
  const parts = [`t=${timestamp}`, `v1=${svcDigest(secret, timestamp, rawBody)}`];
  if (previousSecret !== undefined && previousSecret !== secret) parts.push(`v1=${svcDigest(previousSecret, timestamp, rawBody)}`);
  return parts.join(',');
}

function svcDigest(secret: string, timestamp: number, rawBody: RawBody): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * `X-Webhook-Signature` (legacy): `sha256=<hex>`, HMAC-SHA256 over the raw body alone, keyed with
 * the lowercase hex SHA-256 of the secret taken as UTF-8 text: the key a server holding only that
 * stored hex hash would use.
 */
export function legacySignature(secret: string, rawBody: RawBody): string {
  const key = createHash('sha256').update(secret, 'utf8').digest('hex');
  return LEGACY_PREFIX + createHmac('sha256', key).update(rawBody).digest('hex');
}

export type SvcVerification = { ok: true } | { ok: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

/**
 * Consumer side of svc-signature: parses `t` and every `v1`, refuses a timestamp more than
 * `toleranceSec` away from `nowUnix` (either way), and accepts when any v1 matches, compared in
 * constant time.
 */
export function verifySvcSignature(
  header: string | undefined,
  secret: string,
  rawBody: RawBody,
  nowUnix: number,
  toleranceSec: number = SVC_TOLERANCE_SECONDS,
): SvcVerification {
  if (!header) return { ok: false, reason: 'malformed' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1') candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowUnix - timestamp) > toleranceSec) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const expected = svcDigest(secret, timestamp, rawBody);
  return candidates.some((candidate) => equalInConstantTime(candidate, expected)) ? { ok: true } : { ok: false, reason: 'no_matching_signature' };
}

/** Consumer side of X-Webhook-Signature. */
export function verifyLegacySignature(header: string | undefined, secret: string, rawBody: RawBody): boolean {
  if (!header) return false;
  return equalInConstantTime(header.trim(), legacySignature(secret, rawBody));
}

/** timingSafeEqual needs equal lengths; a length mismatch says nothing secret (digest lengths are public). */
function equalInConstantTime(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
