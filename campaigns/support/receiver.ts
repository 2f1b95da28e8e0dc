// A loopback webhook receiver for the campaigns. It counts raw arrivals, every POST as it came,
// never deduplicated, and the arrivals per X-Webhook-Event-Id, so at-least-once delivery after a
// crash shows as duplicates with one event id rather than being hidden.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** every POST that arrived */
  arrivals(): number;
  /** arrivals per X-Webhook-Event-Id (a missing header counts under '') */
  byEventId(): Map<string, number>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  let arrivals = 0;
  const perEvent = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals++;
      const id = String(req.headers['x-webhook-event-id'] ?? '');
      perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals: () => arrivals,
    byEventId: () => new Map(perEvent),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
