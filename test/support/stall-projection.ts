import pg from 'pg';

/**
 * Holds every projector before the next append, as a successor still catching up does: an open
 * transaction with an id keeps later appends out of every reader's snapshot (postgres/position.ts).
 * Postgres only.
 */
export async function stallProjection(connectionString: string): Promise<{ release(): Promise<void> }> {
  const stall = new pg.Client({ connectionString });
  await stall.connect();
  await stall.query('BEGIN');
  await stall.query('SELECT pg_current_xact_id()');
  return {
    async release() {
      await stall.query('COMMIT');
      await stall.end();
    },
  };
}
