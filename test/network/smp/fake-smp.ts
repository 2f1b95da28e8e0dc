/**
 * A fake SMP: node:http on 127.0.0.1, a random port, serving the XML a test puts in `routes`
 * under the request's raw path (percent-encoded as the client sends it). Anything else is 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRoute {
  status?: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** answer only after this long (a slow or hanging SMP) */
  delayMs?: number;
}

export interface FakeSmp {
  url: string;
  routes: Map<string, FakeRoute>;
  /** raw paths requested, in order */
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeSmp(): Promise<FakeSmp> {
  const timers = new Set<NodeJS.Timeout>();
  const routes = new Map<string, FakeRoute>();
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push(path);
    const route = routes.get(path);
    const answer = () => {
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.contentType ?? 'application/xml', ...route.headers }).end(route.body);
    };
    if (route?.delayMs === undefined) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) answer();
    }, route.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
