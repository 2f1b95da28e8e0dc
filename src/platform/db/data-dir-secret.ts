import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A secret the embedded default makes on its first start and keeps (0600) in the data directory,
 * so what it protects survives a restart (the JWT signing key, the webhook secret key). `make` runs
 * only when the file is missing; of two instances starting at once, both keep the first one's (wx).
 * Answers the file's text.
 */
export async function keptSecretFile(dataDir: string, name: string, make: () => Promise<string>): Promise<string> {
  const file = path.join(dataDir, name);
  const stored = await readIfExists(file);
  if (stored !== null) return stored;
  const made = await make();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, made, { mode: 0o600, flag: 'wx' });
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readIfExists(file)) ?? '';
  }
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
