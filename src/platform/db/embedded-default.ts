import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';
import { makePrivateBelow, securePrivateDataDir } from './data-dir.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';

/** Where a start says what it did to the data directory (made it private): a log line. */
export type Notice = (line: string) => void;

/**
 * The embedded default's database: PGlite under `dataDir`/pgdata, the directory made or checked
 * private first (data-dir.ts: a directory others may write is refused) and locked to this process.
 * Closing it also releases the lock.
 */
export async function openEmbeddedDataDir(dataDir: string, notice: Notice = (line) => console.warn(line)): Promise<EmbeddedPostgres> {
  securePrivateDataDir(dataDir, { notice });
  return openPrivateDataDir(dataDir);
}

async function openPrivateDataDir(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = path.join(dataDir, 'pgdata');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const unlock = await lockDataDir(dataDir);
  let embedded: EmbeddedPostgres;
  try {
    embedded = await startEmbeddedPostgres(dir);
  } catch (error) {
    await unlock();
    throw error;
  }
  // PGlite lays a new cluster out with modes of its own (about 970 files chmod-ed 0666, which the
  // umask does not touch); the files Postgres makes later follow the umask. So when its first file
  // is open to others, the cluster is new (or its making was cut short): make it all private. One
  // stat on every other start.
  if (process.platform !== 'win32' && statSync(path.join(dir, 'PG_VERSION')).mode & 0o077) makePrivateBelow(dir);
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
 * service (main.ts, before its heavy imports). The data directory is checked before this returns:
 * a refusal (DataDirRefused) throws here, before anything is written or loaded. The promise is
 * handed to openService, which awaits it; a failure until then is not an unhandled rejection, it
 * rejects there.
 */
export function startEmbeddedDataDir(dataDir: string, notice: Notice): Promise<EmbeddedPostgres> {
  securePrivateDataDir(dataDir, { notice });
  const opening = openPrivateDataDir(dataDir);
  opening.catch(() => {});
  return opening;
}
