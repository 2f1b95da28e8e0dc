import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Everything the process creates from here on is its user's alone: umask 077, so the files
 * Postgres makes inside PGlite as it runs come out 0600 and every directory 0700, as do the keys,
 * the pid file and the demo credentials. (A new cluster's files PGlite chmods itself, past the
 * umask: embedded-default.ts makes those private after the start.) Called first by the entry
 * points (src/main.ts, src/cli.ts); the umask is the process's, PGlite's thread included.
 */
export function keepFilesPrivate(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}

/** A data directory the service must not run on: it says why and what to do, and nothing was written. */
export class DataDirRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirRefused';
  }
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Takes group and other bits off everything under `dir` (symbolic links are left alone); answers how many entries had them. */
export function makePrivateBelow(dir: string): number {
  if (process.platform === 'win32') return 0;
  let loose = 0;
  for (const name of readdirSync(dir)) {
    const entry = path.join(dir, name);
    const stats = lstatSync(entry);
    if (stats.isSymbolicLink()) continue;
    if (stats.mode & 0o077) {
      chmodSync(entry, stats.mode & 0o7700);
      loose++;
    }
    if (stats.isDirectory()) loose += makePrivateBelow(entry);
  }
  return loose;
}

/**
 * DATA_DIR holds the event store and read models (invoices, TOTP secrets' seals, password hashes)
 * and the keys that sign tokens and seal secrets. A missing one is made 0700. An existing one must
 * be a directory owned by the user the service runs as, that no other user may write: the owner,
 * or anyone who can write it, can replace the database or the keys in it, so on such a directory
 * the service refuses to start (DataDirRefused) rather than trust what is there. One that others
 * may only read and enter (0755, as releases before issue 37 made it, with their files 0666) is
 * made private, with everything in it, and `notice` says so: it is the state this service itself
 * left, and refusing it would only stop every existing installation on upgrade.
 * `uid`: the user the service runs as (tests pretend another).
 */
export function securePrivateDataDir(dir: string, options: { notice?: (line: string) => void; uid?: number } = {}): void {
  if (process.platform === 'win32') {
    mkdirSync(dir, { recursive: true });
    return;
  }
  let stats = statSync(dir, { throwIfNoEntry: false });
  if (!stats) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stats = statSync(dir);
  }
  if (!stats.isDirectory()) throw new DataDirRefused(`DATA_DIR ${dir} is not a directory: point DATA_DIR at a directory of this user's.`);
  const uid = options.uid ?? process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new DataDirRefused(
      `DATA_DIR ${dir} belongs to user ${stats.uid}, but the service runs as user ${uid}: its owner could replace the database and the keys in it. ` +
        `Give it to this user (chown) or point DATA_DIR elsewhere.`,
    );
  }
  if (stats.mode & 0o022) {
    throw new DataDirRefused(
      `DATA_DIR ${dir} can be written by other users (mode ${octal(stats.mode)}): they could have replaced the database or the keys in it, so the service does not start on it. ` +
        `Check its contents, then make it private (chmod -R go-rwx ${dir}), or point DATA_DIR at a new directory.`,
    );
  }
  if (stats.mode & 0o077) {
    let loose: number;
    try {
      chmodSync(dir, 0o700);
      loose = makePrivateBelow(dir);
    } catch (error) {
      throw new DataDirRefused(`DATA_DIR ${dir} is readable by other users (mode ${octal(stats.mode)}) and could not be made private: ${(error as Error).message}`);
    }
    options.notice?.(
      `DATA_DIR ${dir} was readable by other users (mode ${octal(stats.mode)}; ${loose} entries in it open too): made it and everything in it private to this user (directories 0700, files 0600).`,
    );
  }
}
