// The canaries of the xml campaign. The canary file is a FIFO: a process that opens it for reading
// blocks until a writer comes, so polling for a reader (an O_NONBLOCK open for writing succeeds only
// while one is waiting) cannot miss it; each one seen is counted and given a line so it goes on. No
// atime, no inotify. The canary HTTP server counts every request, whatever its path.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface CanarySet {
  file: string;
  http: string;
  /** readers of the canary file seen so far */
  fileReads(): number;
  /** requests to the canary server so far */
  httpHits(): number;
  close(): Promise<void>;
}

export async function startCanaries(): Promise<CanarySet> {
  const dir = mkdtempSync(path.join(tmpdir(), 'xml-canary-'));
  const file = path.join(dir, 'secret.txt');
  execFileSync('mkfifo', [file]);
  let reads = 0;
  const poll = setInterval(() => {
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      return; // ENXIO: nobody has it open for reading
    }
    reads++;
    try {
      writeSync(fd, 'CANARY-SECRET\n');
    } catch {
      // the reader went away
    }
    closeSync(fd);
  }, 2);
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/xml' }).end('<!ENTITY canary "CANARY-SECRET">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    file,
    http: `http://127.0.0.1:${port}`,
    fileReads: () => reads,
    httpHits: () => hits,
    async close() {
      clearInterval(poll);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
