/**
 * MIME multipart/related (RFC 2387) around an AS4 message: the SOAP envelope as the root part, the
 * payload as an attachment named by Content-ID (SwA). Writing is a few lines of headers; reading
 * uses Dicer (the multipart parser inside @fastify/busboy, exported by it), which takes any
 * boundary and skips a preamble and an epilogue. Parts are decoded from binary, 8bit, 7bit or base64.
 */
import { randomBytes } from 'node:crypto';
import { Dicer } from '@fastify/busboy';
import contentType from 'content-type';
import { otherError } from './errors.ts';
import { SOAP_CONTENT_TYPE } from './names.ts';

export interface MimePart {
  /** Content-ID without its angle brackets */
  contentId: string | null;
  contentType: string;
  /** the content, transfer encoding undone */
  body: Buffer;
}

export interface MultipartMessage {
  contentType: string;
  body: Buffer;
}

/** A new Content-ID (RFC 2392 msg-id form); the attachment's `cid:` URI is `cid:` + this. */
export function newContentId(kind: string): string {
  return `${kind}-${randomBytes(12).toString('hex')}@as4`;
}

/** The SOAP part first (the root), then each attachment; every part binary. */
export function writeMultipart(soap: string, soapContentId: string, attachments: readonly MimePart[]): MultipartMessage {
  const boundary = `----=_Part_${randomBytes(18).toString('hex')}`;
  const delimiter = Buffer.from(`--${boundary}`);
  const pieces: Buffer[] = [];
  const part = (headers: string[], body: Buffer) => {
    if (body.includes(delimiter)) throw new Error('MIME writer: a part contains the boundary');
    pieces.push(delimiter, Buffer.from(`\r\n${headers.join('\r\n')}\r\n\r\n`), body, Buffer.from('\r\n'));
  };
  part([`Content-Type: ${SOAP_CONTENT_TYPE}; charset=UTF-8`, 'Content-Transfer-Encoding: binary', `Content-ID: <${soapContentId}>`], Buffer.from(soap, 'utf8'));
  for (const attachment of attachments) {
    part([`Content-Type: ${attachment.contentType}`, 'Content-Transfer-Encoding: binary', `Content-ID: <${attachment.contentId}>`], attachment.body);
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const type = contentType.format({ type: 'multipart/related', parameters: { boundary, type: SOAP_CONTENT_TYPE, start: `<${soapContentId}>` } });
  return { contentType: type, body: Buffer.concat(pieces) };
}

/** The most parts an AS4 message of ours may have: the SOAP part and a few attachments. */
const MAX_PARTS = 10;

export interface ReadMultipart {
  root: MimePart;
  attachments: MimePart[];
}

/** Reads a multipart/related body; the root is the part `start` names, else the first. Throws As4Error (EBMS:0004). */
export async function readMultipart(contentTypeHeader: string, body: Buffer): Promise<ReadMultipart> {
  let parsed: ReturnType<typeof contentType.parse>;
  try {
    parsed = contentType.parse(contentTypeHeader);
  } catch {
    throw otherError('the Content-Type header is not a media type');
  }
  if (parsed.type !== 'multipart/related') throw otherError(`the message is ${parsed.type}, not multipart/related`);
  const boundary = parsed.parameters.boundary;
  if (!boundary) throw otherError('the multipart/related Content-Type has no boundary');
  const parts = await splitParts(boundary, body);
  if (parts.length === 0) throw otherError('the multipart message has no parts');
  const start = parsed.parameters.start ? unbracket(parsed.parameters.start) : null;
  const rootIndex = start === null ? 0 : parts.findIndex((p) => p.contentId === start);
  if (rootIndex < 0) throw otherError(`no part has the Content-ID <${start}> that start names`);
  const root = parts[rootIndex] as MimePart;
  return { root, attachments: parts.filter((_, i) => i !== rootIndex) };
}

function splitParts(boundary: string, body: Buffer): Promise<MimePart[]> {
  return new Promise((resolve, reject) => {
    const parts: MimePart[] = [];
    const pending: Promise<void>[] = [];
    let failed = false;
    const fail = (reason: string) => {
      if (failed) return;
      failed = true;
      reject(otherError(reason));
    };
    const dicer = new Dicer({ boundary });
    dicer.on('part', (stream) => {
      if (parts.length + pending.length >= MAX_PARTS) {
        stream.resume();
        fail(`the multipart message has more than ${MAX_PARTS} parts`);
        return;
      }
      let headers: Record<string, string[]> = {};
      const chunks: Buffer[] = [];
      stream.on('header', (h: object) => (headers = h as Record<string, string[]>));
      stream.on('data', (chunk: Buffer | string) => chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
      pending.push(
        new Promise<void>((done) => {
          stream.on('error', (err: Error) => {
            fail(`a MIME part is broken: ${err.message}`);
            done();
          });
          stream.on('end', () => {
            try {
              parts.push(decodePart(headers, Buffer.concat(chunks)));
            } catch (err) {
              fail(err instanceof Error ? err.message : String(err));
            }
            done();
          });
        }),
      );
    });
    dicer.on('error', (err: Error) => fail(`the multipart message is broken: ${err.message}`));
    dicer.on('finish', () => {
      void Promise.all(pending).then(() => {
        if (!failed) resolve(parts);
      });
    });
    dicer.end(body);
  });
}

function header(headers: Record<string, string[]>, name: string): string | null {
  const values = headers[name];
  if (!values || values.length === 0) return null;
  if (values.length > 1) throw otherError(`a MIME part has ${values.length} ${name} headers`);
  return (values[0] as string).trim();
}

function decodePart(headers: Record<string, string[]>, raw: Buffer): MimePart {
  const id = header(headers, 'content-id');
  const type = header(headers, 'content-type') ?? 'text/plain';
  const encoding = (header(headers, 'content-transfer-encoding') ?? 'binary').toLowerCase();
  let body: Buffer;
  if (encoding === 'binary' || encoding === '8bit' || encoding === '7bit') body = raw;
  else if (encoding === 'base64') {
    const text = raw.toString('latin1').replace(/[\r\n\t ]/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw otherError('a base64 MIME part is not base64');
    body = Buffer.from(text, 'base64');
  } else throw otherError(`the Content-Transfer-Encoding ${encoding} is not supported`);
  return { contentId: id === null ? null : unbracket(id), contentType: type, body };
}

function unbracket(id: string): string {
  const trimmed = id.trim();
  return trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1) : trimmed;
}

/** Whether a `cid:` URI (RFC 2392: URL-encoded) names the part with this Content-ID. */
export function cidNames(uri: string, contentId: string | null): boolean {
  if (contentId === null || !uri.startsWith('cid:')) return false;
  try {
    return decodeURIComponent(uri.slice(4)) === contentId;
  } catch {
    return false;
  }
}

/** The `cid:` URI of a Content-ID. */
export const cidOf = (contentId: string) => `cid:${encodeURIComponent(contentId).replace(/%40/g, '@')}`;
