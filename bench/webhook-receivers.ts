import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local webhook receivers for `bench webhooks`, in a process of their own (in the service's
 * process they would take its event loop): each answers 200 after `delayMs`, or never (`hang`).
 * They count raw arrivals and the time from the envelope's occurred_at (the source event's commit)
 * to receipt.
 */
export interface ReceiverJob {
  count: number;
  delayMs: number;
  /** indexes of receivers that never answer */
  hang: number[];
}
export interface ReceiverReport {
  arrivals: number[];
  latenciesMs: number[];
  first: number;
  last: number;
}

const servers: Server[] = [];
const arrivals: number[] = [];
let latencies: number[] = [];
let first = 0;
let last = 0;

function start(job: ReceiverJob): Promise<number[]> {
  return Promise.all(Array.from({ length: job.count }, (_, i) => new Promise<number>((resolve) => {
    arrivals[i] = 0;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const now = Date.now();
        arrivals[i] = (arrivals[i] ?? 0) + 1;
        first ||= now;
        last = now;
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { occurred_at?: string; created_at?: string };
        const at = Date.parse(body.occurred_at ?? body.created_at ?? '');
        if (!Number.isNaN(at)) latencies.push(now - at);
        if (job.hang.includes(i)) return; // never answers: the sender times out
        setTimeout(() => res.end('ok'), job.delayMs);
      });
    });
    server.keepAliveTimeout = 60_000;
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  })));
}

process.on('message', (message: { start?: ReceiverJob; count?: boolean; report?: boolean; reset?: boolean; stop?: boolean }) => {
  if (message.start) void start(message.start).then((ports) => process.send?.({ ports }));
  // the counts alone while waiting: sending every latency four times a second would load the receivers themselves
  if (message.count) process.send?.({ count: [...arrivals] });
  if (message.report) process.send?.({ report: { arrivals: [...arrivals], latenciesMs: latencies, first, last } satisfies ReceiverReport });
  if (message.reset) {
    arrivals.fill(0);
    latencies = [];
    first = 0;
    last = 0;
    process.send?.({ reset: true });
  }
  if (message.stop) {
    for (const s of servers) s.closeAllConnections();
    process.exit(0);
  }
});
