import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';

/**
 * The embedded default's database: PGlite under `dataDir`/pgdata, the directory locked to this
 * process first. Closing it also releases the lock.
 */
export async function openEmbeddedDataDir(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = path.join(dataDir, 'pgdata');
  await mkdir(dir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  let embedded: EmbeddedPostgres;
  try {
    embedded = await startEmbeddedPostgres(dir);
  } catch (error) {
    await unlock();
    throw error;
  }
  return {
    connectionString: embedded.connectionString,
    async close() {
      await embedded.close();
      await unlock();
    },
  };
}

/**
 * Starts opening it now, so that PGlite starts on its thread while the caller loads the rest of the
 * service (main.ts, before its heavy imports). The promise is handed to openService, which awaits
 * it; a failure until then is not an unhandled rejection, it rejects there.
 */
export function startEmbeddedDataDir(dataDir: string): Promise<EmbeddedPostgres> {
  const opening = openEmbeddedDataDir(dataDir);
  opening.catch(() => {});
  return opening;
}
