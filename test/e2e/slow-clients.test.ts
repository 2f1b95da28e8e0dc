import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, healthy, startService, stopService } from './support/service-process.ts';

// A client that sends too slowly, or not at all, is dropped: the started service (src/main.ts), with
// its limits shortened through the environment. Each wait has a bound far above the limits (1-2 s)
// and far below Node's defaults (300 s for a request, 60 s for headers, checked every 30 s).
const LIMITS = {
  HTTP_REQUEST_TIMEOUT_MS: '2000',
  HTTP_HEADERS_TIMEOUT_MS: '1000',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
  HTTP_MAX_REQUESTS_PER_SOCKET: '2',
};
const CLOSED_WITHIN_MS = 45_000;

interface Connection {
  socket: Socket;
  /** what the server sent, when it closed the connection */
  closed: Promise<string>;
}

function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<string>((done, fail) => {
      const bound = setTimeout(() => fail(new Error(`still open after ${CLOSED_WITHIN_MS} ms; received ${JSON.stringify(received)}`)), CLOSED_WITHIN_MS);
      socket.on('close', () => {
        clearTimeout(bound);
        done(received);
      });
    });
    socket.on('error', () => undefined); // a reset shows as 'close'
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Writes `chunks` one at a time every `everyMs` until the server closes. */
function trickle(socket: Socket, chunks: Iterable<string>, everyMs: number): void {
  const iterator = chunks[Symbol.iterator]();
  const timer = setInterval(() => {
    const next = iterator.next();
    if (next.done || socket.destroyed) clearInterval(timer);
    else socket.write(next.value);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

function* forever(chunk: string): Generator<string> {
  for (;;) yield chunk;
}

describe('slow clients are dropped by the started service', function () {
  this.timeout(360_000);
  let dataDir: string;
  let port: number;
  let child: ChildProcess;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'svc-slow-'));
    port = await freePort();
    child = startService('tsx', dataDir, port, LIMITS);
    await healthy(child, port, 300_000);
  });
  after(async () => {
    if (child) await stopService(child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('closes a connection whose body trickles in (408), though each byte comes well within the limit', async () => {
    const { socket, closed } = await open(port);
    socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    trickle(socket, forever(' '), 200);
    expect(await closed).to.match(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose headers trickle in', async () => {
    const { socket, closed } = await open(port);
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n');
    trickle(socket, forever('X-Slow: y\r\n'), 200);
    expect(await closed).to.match(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a byte', async () => {
    const { closed } = await open(port);
    await closed;
  });

  it('closes an idle keep-alive connection after its answer', async () => {
    const { socket, closed } = await open(port);
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closed).to.match(/^HTTP\/1\.1 200 /);
  });

  it('closes a keep-alive connection after its last allowed request', async () => {
    const { socket, closed } = await open(port);
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    // the second request once the first answer is in, so the two answers arrive in order
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const received = await closed;
    expect(received.match(/HTTP\/1\.1 200 /g)).to.have.length(2);
    expect(received.toLowerCase()).to.include('connection: close');
  });

  it('still answers a client that sends its request at once', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
    });
    expect(response.status).to.be.within(400, 499);
  });
});
