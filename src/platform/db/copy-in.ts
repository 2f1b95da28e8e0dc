import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `COPY … FROM STDIN` (text format) in `client`'s current transaction, through pg-copy-streams
 * (pg has no COPY API of its own): `lines` are printed one chunk at a time as the socket drains,
 * so the client prints the next chunk while the server stores the one before. Resolves with the
 * rows the server copied; a refused copy rejects with the server's error.
 *
 * PGlite behind pglite-socket cannot take COPY FROM STDIN (it ends the connection): read models
 * ask copierOf (readmodel/copy-rows.ts), which knows.
 */
export async function copyIn(client: pg.ClientBase, statement: string, lines: Iterable<Buffer>): Promise<number> {
  const copy = client.query(copyFrom(statement));
  await pipeline(Readable.from(lines, { objectMode: false }), copy);
  return copy.rowCount ?? 0;
}

/**
 * `rows` as COPY text-format lines of `columns` (copyField), in chunks of about `chunkBytes`
 * (a line may span two: the server reads the data as one stream), each printed when asked for.
 * Every field is written into the chunk as UTF-8 at once: a string of many lines, built first
 * and converted after, cost several times more to convert (a rope flattened, two-byte once any
 * field has a character beyond Latin-1) than to print.
 */
export function* copyChunks<R>(rows: Iterable<R>, columns: readonly (keyof R)[], chunkBytes = 256 * 1024): Generator<Buffer> {
  let chunk = Buffer.allocUnsafe(chunkBytes);
  let at = 0;
  for (const row of rows) {
    for (let c = 0; c < columns.length; c++) {
      const text = copyField(row[columns[c] as keyof R]);
      // a UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, 4); and the separator
      if (at + text.length * 3 + 1 > chunk.length) {
        if (at > 0) yield chunk.subarray(0, at);
        chunk = Buffer.allocUnsafe(Math.max(chunkBytes, text.length * 3 + 1));
        at = 0;
      }
      at += chunk.write(text, at);
      chunk[at++] = c === columns.length - 1 ? NEWLINE : TAB;
    }
  }
  if (at > 0) yield chunk.subarray(0, at);
}

const TAB = 0x09;
const NEWLINE = 0x0a;

const SPECIAL = /[\\\n\r\t]/;

/**
 * One field of a COPY text-format line: null as \N, objects as JSON, the rest as text, with the
 * four characters the format gives a meaning (backslash, newline, carriage return, tab) escaped.
 */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value as number | boolean);
  return SPECIAL.test(text) ? text.replace(/[\\\n\r\t]/g, escape) : text;
}

const escape = (c: string) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t');
