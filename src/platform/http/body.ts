import type { IncomingMessage } from 'node:http';
import { parse as parseContentType, type ContentType } from 'content-type';
import getRawBody from 'raw-body';
import { PlatformError } from './errors.ts';
import { locateJsonError } from './json-error.ts';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** Deepest nesting of arrays and objects a JSON body may have; no request of the API needs more than a few levels. */
export const MAX_JSON_DEPTH = 64;

/** raw-body's errors carry a `type`; anything else is not a body problem. */
function rawBodyErrorType(err: unknown): string | undefined {
  if (err instanceof Error && 'type' in err && typeof err.type === 'string') return err.type;
  return undefined;
}

/** Resolves once the request's body has been read to its end (and dropped), or the request is gone. */
function drained(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve).once('close', resolve).once('error', () => resolve());
    req.resume();
  });
}

/** Reads the whole request body as bytes, refusing more than `limit` (413) before buffering it. */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { limit, length: req.headers['content-length'] });
  } catch (err) {
    switch (rawBodyErrorType(err)) {
      case 'entity.too.large':
        // answer only once the rest of the upload is read and dropped: answering while the client
        // still sends makes the connection close under it, and it sees a reset instead of the 413
        // (the server's request timeout bounds how long a slow sender can hold this)
        await drained(req);
        throw new PlatformError('payload_too_large', 413, `request body exceeds ${limit} bytes`, { limit_bytes: limit });
      case 'request.aborted':
        throw new PlatformError('request_aborted', 400, 'the client closed the request before the body was complete');
      case 'request.size.invalid':
        throw new PlatformError('malformed_request', 400, 'request body length does not match Content-Length');
      default:
        throw err;
    }
  }
}

function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * A body that may be JSON or, for routes that accept it, an HTML form (RFC 6749 token requests):
 * form fields become strings; a repeated field is refused rather than guessed at.
 */
export function parseJsonOrFormBody(raw: Buffer, contentTypeHeader: string | undefined): unknown {
  let type = '';
  try {
    type = parseContentType(contentTypeHeader ?? '').type;
  } catch {
    // not a form: the JSON parser gives the error
  }
  if (type !== FORM || raw.length === 0) return parseJsonBody(raw, contentTypeHeader);
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) {
    if (name in fields) throw new PlatformError('malformed_request', 400, `form field ${name} is repeated`);
    fields[name] = value;
  }
  return fields;
}

/**
 * Parses a JSON body. An empty body is `undefined` (validation then says the body is missing);
 * a non-empty one must be declared as JSON in UTF-8.
 */
export function parseJsonBody(raw: Buffer, contentTypeHeader: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  let media: ContentType;
  try {
    media = parseContentType(contentTypeHeader ?? '');
  } catch {
    throw new PlatformError('unsupported_content_type', 400, 'request body must be sent as Content-Type: application/json');
  }
  const charset = media.parameters['charset']?.toLowerCase();
  if (!isJsonMediaType(media.type) || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new PlatformError('unsupported_content_type', 400, `expected application/json in UTF-8, got ${contentTypeHeader ?? 'none'}`);
  }
  if (nestingExceeds(raw, MAX_JSON_DEPTH)) {
    // refused before parsing: a deep value would overflow the stack of everything that walks it
    throw new PlatformError('json_too_deep', 400, `request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, { max_depth: MAX_JSON_DEPTH });
  }
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // where and why in our words, not the parser's message (it may echo the body and names no position for some errors)
    const at = locateJsonError(text);
    throw new PlatformError('malformed_json', 400, `request body is not valid JSON: line ${at.line}, column ${at.column}: ${at.reason}`, {
      line: at.line, column: at.column, offset: at.offset, reason: at.reason,
    });
  }
}

/**
 * Whether `[`/`{` nest deeper than `max` outside strings. Not a parser: a malformed body passes
 * here and JSON.parse refuses it. Bytes suffice: UTF-8 continuation bytes are never ASCII.
 */
export function nestingExceeds(raw: Buffer, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b === 0x22) i = stringEnd(raw, i);
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

/**
 * The index of the quote that closes the string opened at `open` (raw.length when none does). Walks
 * 64 bytes at a time, then jumps to the next quote with Buffer.indexOf, so a 10 MB string (a SAPI
 * payload) costs a native scan, not a JavaScript loop over every byte (~50 ms on a loaded machine).
 * A quote found by the jump closes the string when an even run of backslashes precedes it; an escaped
 * one resumes the walk after it, so many escaped quotes cost no more than the walk alone.
 */
function stringEnd(raw: Buffer, open: number): number {
  let i = open + 1;
  for (;;) {
    for (const stop = Math.min(raw.length, i + 64); i < stop; i++) {
      const b = raw[i];
      if (b === 0x5c) i++; // \ escapes the next byte, an escaped quote included
      else if (b === 0x22) return i;
    }
    const quote = i < raw.length ? raw.indexOf(0x22, i) : -1;
    if (quote < 0) return raw.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > open && raw[quote - backslashes - 1] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}
