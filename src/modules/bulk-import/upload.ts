import { Busboy } from '@fastify/busboy';
import { parse as parseContentType } from 'content-type';
import { BULK_IMPORT_LIMITS } from '../../../commands/bulk-import/limits.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';

/** The file of an import request, as bytes, and its name when it came as a multipart upload. */
export interface Upload {
  bytes: Buffer;
  fileName: string | null;
}

/** Media types a CSV body may be sent as (browsers and curl send text/plain or application/vnd.ms-excel for .csv). */
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel']);
/** The multipart field that carries the file. */
export const FILE_FIELD = 'file';

const tooLarge = () =>
  new DomainError('payload_too_large', `the file exceeds ${BULK_IMPORT_LIMITS.maxFileBytes} bytes: split it`, { limit_bytes: BULK_IMPORT_LIMITS.maxFileBytes });
const unsupported = (got: string) =>
  new DomainError('unsupported_content_type', `send the CSV as Content-Type: text/csv (UTF-8), or as multipart/form-data with the file in the field "${FILE_FIELD}"; got ${got}`);

/**
 * The file of `POST …/invoices/bulk-import`: the body itself (text/csv), or the part named `file`
 * of a multipart/form-data upload, read by @fastify/busboy (other fields are ignored; a second
 * file part is refused). A charset other than UTF-8 is refused here; the bytes are checked to be
 * UTF-8 when the job is made.
 */
export async function readUpload(body: Buffer, contentTypeHeader: string | undefined): Promise<Upload> {
  let media;
  try {
    media = parseContentType(contentTypeHeader ?? '');
  } catch {
    throw unsupported(contentTypeHeader ?? 'none');
  }
  const charset = media.parameters['charset']?.toLowerCase();
  if (media.type === 'multipart/form-data') return readMultipart(body, contentTypeHeader as string);
  if (!CSV_TYPES.has(media.type)) throw unsupported(media.type);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new DomainError('unsupported_content_type', `the CSV must be UTF-8, not ${charset}: save it as "CSV UTF-8"`);
  }
  if (body.length > BULK_IMPORT_LIMITS.maxFileBytes) throw tooLarge();
  return { bytes: body, fileName: null };
}

async function readMultipart(body: Buffer, contentType: string): Promise<Upload> {
  const malformed = (error: unknown) => new DomainError('malformed_request', `unreadable multipart body: ${error instanceof Error ? error.message : String(error)}`);
  return new Promise<Upload>((resolve, reject) => {
    let found: Upload | undefined;
    let refusal: DomainError | undefined;
    let parser;
    try {
      parser = new Busboy({ headers: { 'content-type': contentType }, limits: { files: 2, fileSize: BULK_IMPORT_LIMITS.maxFileBytes, fields: 20, parts: 24 } });
    } catch (error) {
      // no boundary, or not multipart after all
      reject(malformed(error));
      return;
    }
    parser.on('file', (field, stream, fileName) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (refusal ??= tooLarge()));
      // a part cut short (the body ends before its boundary) errors on the file stream, not the
      // parser: unhandled, that 'error' event would end the process
      stream.on('error', (error: unknown) => reject(malformed(error)));
      stream.on('end', () => {
        if (field !== FILE_FIELD) return;
        if (found) refusal ??= new DomainError('malformed_request', `send one file in the field "${FILE_FIELD}"`);
        found = { bytes: Buffer.concat(chunks), fileName: fileName || null };
      });
    });
    parser.on('error', (error: unknown) => reject(malformed(error)));
    parser.on('finish', () => {
      if (refusal) reject(refusal);
      else if (!found) reject(new DomainError('file_missing', `no file in the multipart field "${FILE_FIELD}"`));
      else resolve(found);
    });
    parser.end(body);
  });
}
