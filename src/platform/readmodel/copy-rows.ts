import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { copyIn } from '../db/copy-in.ts';

/** Runs `COPY … FROM STDIN` with `lines` (COPY text format) in the transaction; resolves with the rows copied. */
export type CopyRows = (statement: string, lines: Iterable<Buffer>) => Promise<number>;

/** Per read-model database: whether it takes COPY FROM STDIN (Postgres does; PGlite behind its socket does not). */
const copyable = new WeakMap<DataSource, Promise<boolean>>();

/**
 * COPY into the read models inside `tx` (a transaction's manager), or null where the server
 * cannot take it (PGlite): a projector writing thousands of new rows (a rebuild's batches) copies
 * them, which costs the server about half of an INSERT reading the same rows from one JSON
 * parameter (the whole parameter is parsed as jsonb before any row is taken from it).
 */
export async function copierOf(tx: EntityManager): Promise<CopyRows | null> {
  // TypeORM keeps the transaction's pg client on its query runner; it has no public accessor
  const client = (tx.queryRunner as unknown as { databaseConnection?: pg.ClientBase } | undefined)?.databaseConnection;
  if (!client) return null;
  let known = copyable.get(tx.connection);
  if (!known) {
    const source = tx.connection;
    known = (tx.query('SELECT version() AS version') as Promise<{ version: string }[]>).then(
      (rows) => !/PGlite/i.test(rows[0]?.version ?? ''),
      (error: unknown) => {
        copyable.delete(source); // asked again next time
        throw error;
      },
    );
    copyable.set(source, known);
  }
  return (await known) ? (statement, lines) => copyIn(client, statement, lines) : null;
}
