import { createHash } from 'node:crypto';
import { InvalidFields } from '../shared/invalid-fields.ts';

/** The header a client names a request with; kept for RETENTION_MS. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_MAX_LENGTH = 255;
// printable ASCII: what every HTTP stack carries unchanged (the IETF draft uses a structured-field string)
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** The key as given, or a 422 in the request-body shape with loc ["header", "idempotency-key"]. */
export function checkIdempotencyKey(key: string): string {
  const problem = key.length === 0 ? 'must not be empty'
    : key.length > KEY_MAX_LENGTH ? `at most ${KEY_MAX_LENGTH} characters`
    : !PRINTABLE_ASCII.test(key) ? 'printable ASCII characters only (U+0020 to U+007E)'
    : null;
  if (problem === null) return key;
  // the input is echoed bounded: a key is a name, not a payload
  throw new InvalidFields([{ loc: ['header', IDEMPOTENCY_HEADER], msg: `Idempotency-Key: ${problem}`, type: 'value_error', input: key.slice(0, 64) }]);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Only the key's hash is stored and names the stream: a key may carry whatever a client put in it. */
export const idempotencyKeyHash = (key: string): string => sha256(key);

/** JSON with object keys sorted, so two bodies that differ only in key order or whitespace are one request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes two requests "the same": the operation, its path parameters and its body (validated, canonical). */
export function requestFingerprint(request: { operation: string; params: unknown; body: unknown }): string {
  return sha256(canonicalJson([request.operation, request.params ?? {}, request.body ?? null]));
}
