// The first start's new cluster, made in a process of its own: `node --liftoff-only
// embedded-initdb.js <dataDir>`, started by src/platform/db/embedded.ts. Exit code 0 once made;
// otherwise the reason on stderr.
import { inspect } from 'node:util';
import { initialisePglite } from './embedded-server.ts';

const dataDir = process.argv[2];
try {
  if (!dataDir) throw new Error('usage: embedded-initdb <dataDir>');
  await initialisePglite(dataDir);
} catch (error) {
  // PGlite's file system throws plain objects too (Emscripten's ErrnoError): shown, not "[object Object]"
  process.stderr.write(error instanceof Error ? error.message : inspect(error, { depth: 2 }));
  process.exitCode = 1;
}
