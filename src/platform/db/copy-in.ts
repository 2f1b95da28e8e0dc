import type pg from 'pg';

/**
 * `COPY … FROM STDIN` (text format) through a pg client, which has no API for it: the statement
 * is a pg "submittable" that answers the server's CopyInResponse with `lines`, printed one chunk
 * at a time as the socket drains, so the client prints the next chunk while the server stores
 * the one before. Resolves with the rows the server copied.
 *
 * PGlite behind pglite-socket cannot take COPY FROM STDIN (it ends the connection): read models
 * ask copierOf (readmodel/copy-rows.ts), which knows.
 */
export function copyIn(client: pg.ClientBase, statement: string, lines: Iterable<Buffer>): Promise<number> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let copied = 0;
    const copy: CopySubmittable = {
      text: statement,
      submit: (connection) => connection.query(statement),
      handleCopyInResponse: (connection) => {
        void send(connection, lines, () => failed).catch((error: unknown) => {
          // the server answers CopyFail with an error: handleError rejects with it
          connection.sendCopyFail(error instanceof Error ? error.message : String(error));
        });
      },
      handleCommandComplete: (message) => {
        copied = Number(/\d+$/.exec(message.text)?.[0] ?? 0);
      },
      // pg's last call for a statement that failed (it forgets the statement before ReadyForQuery)
      handleError: (error) => {
        failed = true;
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      handleReadyForQuery: () => resolve(copied),
      handleRowDescription: () => undefined,
      handleDataRow: () => undefined,
      handleEmptyQuery: () => undefined,
    };
    (client as unknown as { query(submittable: CopySubmittable): void }).query(copy);
  });
}

/** What pg's client calls on a query it runs (lib/client.js); only these matter for a COPY FROM. */
interface CopySubmittable {
  text: string;
  submit(connection: CopyConnection): void;
  handleCopyInResponse(connection: CopyConnection): void;
  handleCommandComplete(message: { text: string }): void;
  handleError(error: unknown): void;
  handleReadyForQuery(): void;
  handleRowDescription(): void;
  handleDataRow(): void;
  handleEmptyQuery(): void;
}

interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean };
}

/** Sends `lines`, until the server has refused the copy (it drops what comes after). */
async function send(connection: CopyConnection, lines: Iterable<Buffer>, refused: () => boolean): Promise<void> {
  for (const chunk of lines) {
    if (refused()) return;
    connection.sendCopyFromChunk(chunk);
    // the server reads no faster than it stores: wait for it rather than buffer the whole load
    if (connection.stream.writableNeedDrain) await new Promise((resolve) => connection.stream.once('drain', resolve));
  }
  connection.endCopyFrom();
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
