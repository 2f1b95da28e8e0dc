import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type Koa from 'koa';
import { pino, type Logger } from 'pino';

export interface Running {
  /** 'http://127.0.0.1:<port>' */
  base: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral port, so suites can run side by side. */
export async function listen(app: Pick<Koa, 'callback'>): Promise<Running> {
  const { createServer } = await import('node:http');
  const server = createServer(app.callback());
  // Tests share one process with the service: a test that blocks it for seconds (building a 30 MB
  // body) lets Node's 5 s keep-alive close a connection at the very moment the client reuses it,
  // a reset no answer explains. Kept-alive connections here outlive the client's own idle limit.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A logger whose JSON lines a test can read back. */
export function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}
