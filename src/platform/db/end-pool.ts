import type pg from 'pg';

/**
 * pool.end() resolves before its connections have closed; dropping the database (WITH FORCE)
 * right then kills them mid-goodbye and their FATAL surfaces as an uncaught error. Waits for
 * every connection's 'remove' first.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    pool.on('remove', () => {
      if (--open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}
