import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The raw body exactly as received: verify before parsing, never on re-serialised JSON. */
export type RawBody = string | Uint8Array;

/** Request headers as Node (IncomingHttpHeaders), the Fetch API (Headers) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** the most the signature's timestamp may differ from `now`, either way (default 300, the spec's) */
  toleranceSeconds?: number;
  /** the consumer's clock: a Date or epoch milliseconds (default: now) */
  now?: Date | number;
  /** accept the legacy X-Webhook-Signature when svc-signature is absent (default true; it has no timestamp) */
  allowLegacy?: boolean;
}

export type WebhookVerification =
  | { ok: true; scheme: 'svc-signature'; timestamp: number }
  | { ok: true; scheme: 'legacy'; timestamp: null }
  | { ok: false; reason: 'missing_signature' | 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

const SVC_HEADER = 'svc-signature';
const LEGACY_HEADER = 'x-webhook-signature';
const LEGACY_PREFIX = 'sha256=';

/**
 * Verifies a webhook delivery against any of `secrets` (the plaintext `whsec_` secrets: during a
 * rotation overlap hold the new and the old one). `svc-signature: t=<unix>,v1=<hex>[,v1=<hex>]` is
 * HMAC-SHA256 over `{t}.{raw body}`; it decides when present, and a timestamp further than the
 * tolerance from `now` is refused. Without it, the legacy `X-Webhook-Signature: sha256=<hex>`
 * (HMAC-SHA256 over the raw body, keyed with the hex SHA-256 of the secret) is checked, unless
 * `allowLegacy` is false. Digests are compared in constant time.
 */
export function verifyWebhook(rawBody: RawBody, headers: WebhookHeaders, secrets: readonly string[], options: VerifyWebhookOptions = {}): WebhookVerification {
  const { toleranceSeconds = 300, allowLegacy = true } = options;
  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const svc = headerOf(headers, SVC_HEADER);
  if (svc !== undefined) return verifySvc(svc, rawBody, secrets, Math.floor(nowMs / 1000), toleranceSeconds);
  const legacy = allowLegacy ? headerOf(headers, LEGACY_HEADER) : undefined;
  if (legacy === undefined) return { ok: false, reason: 'missing_signature' };
  if (!legacy.startsWith(LEGACY_PREFIX)) return { ok: false, reason: 'malformed' };
  const given = legacy.slice(LEGACY_PREFIX.length).trim();
  const match = secrets.some((secret) => sameHex(given, hmacHex(createHash('sha256').update(secret, 'utf8').digest('hex'), [rawBody])));
  return match ? { ok: true, scheme: 'legacy', timestamp: null } : { ok: false, reason: 'no_matching_signature' };
}

function verifySvc(header: string, rawBody: RawBody, secrets: readonly string[], nowUnix: number, toleranceSeconds: number): WebhookVerification {
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
  if (Math.abs(nowUnix - timestamp) > toleranceSeconds) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const signed = timestamp;
  const expected = secrets.map((secret) => hmacHex(secret, [`${signed}.`, rawBody]));
  const match = candidates.some((candidate) => expected.some((digest) => sameHex(candidate, digest)));
  return match ? { ok: true, scheme: 'svc-signature', timestamp: signed } : { ok: false, reason: 'no_matching_signature' };
}

function hmacHex(key: string, parts: RawBody[]): string {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/** timingSafeEqual needs equal lengths; a length mismatch tells nothing secret (a digest's length is public). */
function sameHex(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(',') : found;
}
