import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { invoiceStream } from '../events/invoices.ts';
import { systemMetadata } from '../src/modules/invoices/invoice-commands.ts';
import { onEmbedded, onFreshPostgres } from './databases.ts';
import { startBenchService, type BenchService } from './http-service.ts';
import { percentile, watchCpu } from './stats.ts';
import type { ReceiverJob, ReceiverReport } from './webhook-receivers.ts';

const ENDPOINTS = 10;
const RECEIVER_DELAY_MS = 5;
/** appends in flight at once while the events are made */
const WRITERS = 16;
/** the throughput target: the paced run offers exactly this, so its latency is what a subscriber sees at that load */
const TARGET_PER_SECOND = 1_000;

function receivers(): { child: ChildProcess; ask<T>(message: object, key: string): Promise<T> } {
  const child = fork(new URL('./webhook-receivers.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  return {
    child,
    ask<T>(message: object, key: string) {
      return new Promise<T>((resolve) => {
        const on = (answer: Record<string, unknown>) => {
          if (!(key in answer)) return;
          child.off('message', on);
          resolve(answer[key] as T);
        };
        child.on('message', on);
        child.send(message);
      });
    },
  };
}

/** The InvoiceCreated of a real invoice, as the template the bench's events copy (new id, number and time each). */
async function template(svc: BenchService): Promise<Record<string, unknown>> {
  const company = svc.demo.companies[0]!.id;
  const response = await fetch(`${svc.api}/companies/${company}/invoices`, {
    method: 'POST', headers: { 'x-api-key': svc.demo.api_key, 'content-type': 'application/json' },
    body: JSON.stringify({
      issue_date: '2026-11-24', due_date: '2026-12-08',
      buyer: { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK' },
      lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    }),
  });
  const body = (await response.json()) as { id?: string };
  if (!body.id) throw new Error(`template invoice not created: ${JSON.stringify(body)}`);
  const [created] = await svc.services.store.readStream(invoiceStream(body.id));
  if (created?.type !== 'InvoiceCreated') throw new Error('no InvoiceCreated');
  return created.data;
}

/** Appends `n` InvoiceCreated events (one new invoice stream each), `WRITERS` at a time: as fast as they go, or `perSecond`. */
async function makeEvents(svc: BenchService, data: Record<string, unknown>, n: number, tag: string, perSecond?: number): Promise<number> {
  const started = Date.now();
  let next = 0;
  const content = data.content as Record<string, unknown>;
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (let i = next++; i < n; i = next++) {
      const due = perSecond ? started + (i * 1000) / perSecond - Date.now() : 0;
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      const id = randomUUID();
      await svc.services.store.append(invoiceStream(id), [{
        id: randomUUID(), type: 'InvoiceCreated', metadata: systemMetadata('bench-webhooks'),
        data: { ...data, invoice_id: id, content: { ...content, invoice_number: `WH-${tag}-${i}` }, created_at: new Date().toISOString() },
      }], 'no_stream');
    }
  }));
  return started;
}

async function register(svc: BenchService, ports: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const port of ports) {
    const response = await fetch(`${svc.api}/connect/webhooks`, {
      method: 'POST', headers: { 'x-api-key': svc.demo.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: 'invoice.created' }),
    });
    const body = (await response.json()) as { id?: string };
    if (!body.id) throw new Error(`endpoint not created: ${JSON.stringify(body)}`);
    ids.push(body.id);
  }
  return ids;
}

async function waitFor(r: ReturnType<typeof receivers>, expected: number, healthy: number[], timeoutMs: number): Promise<ReceiverReport> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const arrivals = await r.ask<number[]>({ count: true }, 'count');
    const arrived = healthy.reduce((sum, i) => sum + (arrivals[i] ?? 0), 0);
    if (arrived >= expected || Date.now() > until) return r.ask<ReceiverReport>({ report: true }, 'report');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function run(svc: BenchService, data: Record<string, unknown>, events: number, hang: boolean, label: string, offered?: number): Promise<number> {
  const r = receivers();
  const job: ReceiverJob = { count: ENDPOINTS, delayMs: RECEIVER_DELAY_MS, hang: hang ? [0] : [] };
  const ports = await r.ask<number[]>({ start: job }, 'ports');
  const endpointIds = await register(svc, ports);
  const healthy = ports.map((_, i) => i).filter((i) => !job.hang.includes(i));
  const cpu = watchCpu();
  const started = await makeEvents(svc, data, events, randomBytes(3).toString('hex'), offered);
  const appended = Date.now();
  const report = await waitFor(r, events * healthy.length, healthy, 300_000);
  const delivered = healthy.reduce((sum, i) => sum + (report.arrivals[i] ?? 0), 0);
  const seconds = (report.last - started) / 1000;
  const perSecond = delivered / seconds;
  const sorted = [...report.latenciesMs].sort((a, b) => a - b);
  console.log(`  ${label}: ${delivered} of ${events * healthy.length} deliveries to ${healthy.length} answering endpoints in ${seconds.toFixed(1)} s ` +
    `(events appended in ${((appended - started) / 1000).toFixed(1)} s)`);
  console.log(`    ${perSecond.toFixed(0)} deliveries/s   commit → receipt p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   ${cpu()}`);
  for (const id of endpointIds) {
    await fetch(`${svc.api}/connect/webhooks/${id}`, { method: 'DELETE', headers: { 'x-api-key': svc.demo.api_key } });
  }
  r.child.send({ stop: true });
  return perSecond;
}

async function benchOne(label: string, url: string, events: number): Promise<void> {
  const svc = await startBenchService(url, (config) => ({
    ...config, webhooks: { ...config.webhooks, allowLoopbackTargets: true, secretKey: randomBytes(32).toString('base64') },
  }));
  try {
    console.log(`\n${label}: ${ENDPOINTS} endpoints on local receivers answering in ${RECEIVER_DELAY_MS} ms, ${events} events (invoice.created) each to every endpoint`);
    console.log('  a burst shows the most the service delivers (its latency is the backlog); the paced run shows commit → receipt at the target load');
    const data = await template(svc);
    const all = await run(svc, data, events, false, 'burst (events appended as fast as they go), all answering');
    await run(svc, data, Math.ceil(events / 5), false, `paced at ${TARGET_PER_SECOND} deliveries/s (${TARGET_PER_SECOND / ENDPOINTS} events/s), all answering`, TARGET_PER_SECOND / ENDPOINTS);
    const withHang = await run(svc, data, events, true, 'burst, one endpoint hanging until the 10 s timeout');
    const perEndpoint = (total: number, n: number) => total / n;
    const cost = 1 - perEndpoint(withHang, ENDPOINTS - 1) / perEndpoint(all, ENDPOINTS);
    console.log(`    the hanging endpoint cost each other endpoint ${(cost * 100).toFixed(1)} % of its throughput (target ≤ 10 %)`);
  } finally {
    await svc.close();
  }
}

/**
 * `npm run bench -- webhooks [events] [pglite|postgres]`: deliveries per second and commit-to-receipt
 * latency for one organisation with 10 endpoints, then again with one endpoint hanging.
 * Targets: ≥ 1,000 deliveries/s, p99 ≤ 1 s; a hanging endpoint costs the others ≤ 10 %.
 */
export async function main(args: string[]): Promise<void> {
  const events = Number(args[0] ?? 10_000);
  const only = args[1];
  if (only !== 'postgres') await onEmbedded((url) => benchOne('PGlite (embedded, in memory)', url, events));
  if (only === 'pglite') return;
  await onFreshPostgres((url, host) => benchOne(`Postgres (${host}, fresh database)`, url, events));
}
