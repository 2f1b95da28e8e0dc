import type pg from 'pg';

/** Whether the server behind `pool` is PGlite (the embedded default, also when served over a socket). */
export async function isPglite(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ version: string }>('SELECT version() AS version');
  return /PGlite/i.test(rows[0]?.version ?? '');
}
