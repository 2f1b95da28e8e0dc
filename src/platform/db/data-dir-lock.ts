import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Another live process holds DATA_DIR: the CLI says so in one line, without a stack. */
export class DataDirInUse extends Error {
  readonly code = 'data_dir_in_use';
}

/**
 * PGlite's files may be opened by one process only: a second one (the CLI while the service
 * runs) would corrupt them. The holder writes its pid; a stale pid of a dead process is taken over.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, 'service.pid');
  const held = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  if (held && held !== process.pid && alive(held)) {
    throw new DataDirInUse(`${dir} is in use by process ${held} (the service?). Stop it first, or point DATA_DIR elsewhere.`);
  }
  await writeFile(file, String(process.pid));
  return () => rm(file, { force: true });
}
