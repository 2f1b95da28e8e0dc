import { createHash } from 'node:crypto';

/**
 * A UUID that is a function of its parts (RFC 9562 version 8, from SHA-256): the same parts always
 * give the same id. For ids that must survive a replay or a repeat (an invoice line's id, what a
 * reactor writes because of one event).
 */
export function stableUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('/')).digest('hex');
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
