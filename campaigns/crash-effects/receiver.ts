// A loopback webhook receiver that counts raw arrivals: every POST is kept, duplicates included
// (spec rule 5: at least once). Each arrival keeps its X-Webhook-Event-Id, the id in its body, and
// a key of what it says without that id, so a duplicate sent under another id would show.
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  /** the path it was posted to: one per registered endpoint */
  endpoint: string;
  event_id_header: string;
  body_id: string;
  type: string;
  /** sha-256 of the body without its id: the same logical event, whatever id it was sent under */
  content_key: string;
}

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

function contentKey(body: Record<string, unknown>): string {
  const { id: _id, ...rest } = body;
  void _id;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

export async function startReceiver(logFile: string): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // counted with an empty body: the check reports it as a mismatch
      }
      const arrival: Arrival = {
        endpoint: req.url ?? '', event_id_header: String(req.headers['x-webhook-event-id'] ?? ''), body_id: String(body.id ?? ''),
        type: String(body.type ?? body.event ?? ''), content_key: contentKey(body),
      };
      arrivals.push(arrival);
      appendFileSync(logFile, `${JSON.stringify(arrival)}\n`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
