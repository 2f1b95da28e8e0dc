import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: unknown };

/** A local HTTP server that records each request and answers from a script, one reply per request (the last repeats). */
export async function fakeServer(replies: Reply[]): Promise<{ root: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = replies[Math.min(seen.length, replies.length) - 1] ?? { status: 500 };
      const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
      res.writeHead(reply.status, { ...(body ? { 'content-type': 'application/json' } : {}), ...reply.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    root: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
