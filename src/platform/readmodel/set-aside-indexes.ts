/**
 * A rebuild writes every row of a read model again, often several times (an invoice is touched by
 * each delivery step): keeping secondary indexes current row by row costs more than building them
 * once at the end (the register's trigram index above all). So a rebuild sets aside the
 * projector's plain secondary indexes (never a primary key or unique index: those back ON CONFLICT
 * and the rules) in the transaction that empties its tables, and builds them again once it has
 * caught up. Their definitions are kept in projection_set_aside_indexes meanwhile, so a rebuild
 * cut short (kill -9) leaves them there and the next start builds them again (restore).
 */
import type { EntityManager } from 'typeorm';

interface IndexRow {
  index_name: string;
  definition: string;
}

/** Drops the plain secondary indexes of `tables` inside `tx`, recording them for `restore`. */
export async function setAsideIndexes(tx: EntityManager, projector: string, tables: readonly string[]): Promise<number> {
  if (tables.length === 0) return 0;
  const indexes: IndexRow[] = await tx.query(
    `SELECT c.relname AS index_name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname = ANY($1)
        AND NOT i.indisprimary AND NOT i.indisunique AND NOT i.indisexclusion
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [tables],
  );
  for (const index of indexes) {
    await tx.query(
      'INSERT INTO projection_set_aside_indexes (projector, index_name, definition) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [projector, index.index_name, index.definition],
    );
    await tx.query(`DROP INDEX ${quoteIdent(index.index_name)}`);
  }
  return indexes.length;
}

/** Builds again every index set aside for `projector` (all projectors when null) and forgets them. */
export async function restoreIndexes(db: { transaction<T>(run: (tx: EntityManager) => Promise<T>): Promise<T> }, projector: string | null): Promise<number> {
  return db.transaction(async (tx) => {
    const rows: IndexRow[] = await tx.query(
      'SELECT index_name, definition FROM projection_set_aside_indexes WHERE $1::text IS NULL OR projector = $1 FOR UPDATE',
      [projector],
    );
    for (const row of rows) {
      const exists: unknown[] = await tx.query('SELECT 1 FROM pg_class WHERE relname = $1 AND relkind = $2', [row.index_name, 'i']);
      if (exists.length === 0) await tx.query(row.definition);
    }
    if (rows.length > 0) await tx.query('DELETE FROM projection_set_aside_indexes WHERE $1::text IS NULL OR projector = $1', [projector]);
    return rows.length;
  });
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
