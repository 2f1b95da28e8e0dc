/**
 * Name-based UUID version 5 (RFC 9562 §5.5: SHA-1 of namespace bytes + name bytes, version and
 * variant bits set), and the deterministic UUID of a reported invoice (README §5.4).
 */
import { createHash } from 'node:crypto';
import { REPORTED_DOCUMENT_UUID_NAMESPACE } from './names.ts';

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_TEXT.test(value);
}

function uuidBytes(uuid: string): Buffer {
  if (!isUuid(uuid)) throw new RangeError(`not a UUID: ${JSON.stringify(uuid)}`);
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50; // version 5
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80; // variant 10
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The five values the ReportedDocument UUID is named by, as the UBL states them. */
export interface ReportedDocumentKey {
  /** BT-34-1: the seller's EndpointID/@schemeID */
  sellerEndpointScheme: string;
  /** BT-34: the seller's EndpointID */
  sellerEndpointId: string;
  /** BT-3: InvoiceTypeCode or CreditNoteTypeCode */
  documentTypeCode: string;
  /** BT-1 */
  documentId: string;
  /** BT-2, YYYY-MM-DD */
  issueDate: string;
}

/**
 * TDT-017: UUID v5 in the SK namespace of the five values joined by one space, empty values left
 * out (as phax/peppol-sk does). C2's and C3's TDDs of one invoice therefore carry the same UUID,
 * and a Resubmit or Disregard TDD is matched to the original by it.
 */
export function reportedDocumentUuid(key: ReportedDocumentKey): string {
  const name = [key.sellerEndpointScheme, key.sellerEndpointId, key.documentTypeCode, key.documentId, key.issueDate]
    .filter((v) => v !== '')
    .join(' ');
  return uuidV5(REPORTED_DOCUMENT_UUID_NAMESPACE, name);
}
