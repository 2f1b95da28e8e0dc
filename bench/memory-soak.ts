import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoCredentials } from '../src/demo/bootstrap.ts';
import { stopService } from '../test/e2e/support/service-process.ts';
import { prepare, startMeasured, threadLines } from './memory.ts';
import { residentMb, watchCpu } from './stats.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** the load: clients, each a create (every other one sent), a read of it and of the list, then a pause */
const CLIENTS = 4;
const PAUSE_MS = 200;

/**
 * `npm run bench -- memory soak [minutes]`: the compiled service on a fresh embedded DATA_DIR under a
 * steady mixed load (creates, sends through the sandbox network, reads, a webhook endpoint that
 * receives every invoice.created) for `minutes` (default 10), printing its resident memory each
 * minute. What the issue asks: no growth after the first minute. Without the rate limiter (RATE_LIMIT=off),
 * which would refuse part of it from one key.
 */
export async function soak(minutes: number): Promise<void> {
  prepare(REPO);
  let hooks = 0;
  const receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      hooks++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-memory-soak-'));
  const started = await startMeasured(REPO, dataDir, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT: 'off' });
  const pid = started.child.pid as number;
  try {
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
    const api = `http://127.0.0.1:${started.port}/api/v1`;
    const headers = { 'x-api-key': demo.api_key, 'content-type': 'application/json' };
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${api}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
    };
    const [from, to] = demo.companies;
    if (!from || !to) throw new Error('demo companies missing');
    const hook = await call('POST', '/connect/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: 'invoice.created' });
    if (hook.status !== 201) throw new Error(`webhook endpoint not created: ${hook.status} ${JSON.stringify(hook.body)}`);
    const customer = await call('POST', `/companies/${from.id}/customers`, { name: to.name, vat_id: to.vat_id, ico: to.ico, dic: to.dic, peppol_id: to.peppol_id });
    if (customer.status !== 201) throw new Error(`customer not created: ${customer.status} ${JSON.stringify(customer.body)}`);
    const lines = Array.from({ length: 10 }, (_, i) => ({ item_name: `Položka ${i + 1}`, quantity: String(i + 1), unit_price: `${(i + 1) * 7}.35`, vat_rate: ['23', '19', '5'][i % 3] }));

    const counts = { creates: 0, sends: 0, reads: 0, failures: 0 };
    const until = Date.now() + minutes * 60_000;
    const client = async () => {
      for (let n = 0; Date.now() < until; n++) {
        const created = await call('POST', `/companies/${from.id}/invoices`, { issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer.body?.id, lines });
        if (created.status !== 201) {
          if (counts.failures++ === 0) console.log(`  first failure: a create answered ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
          continue;
        }
        counts.creates++;
        const id = created.body?.id as string;
        if (n % 2 === 0) {
          if ((await call('POST', `/companies/${from.id}/invoices/${id}/send`)).status === 202) counts.sends++;
          else counts.failures++;
        }
        const [one, list] = await Promise.all([call('GET', `/companies/${from.id}/invoices/${id}`), call('GET', `/companies/${from.id}/invoices?limit=20`)]);
        counts.reads += Number(one.status === 200) + Number(list.status === 200);
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    };
    const cpu = watchCpu();
    const atRest = residentMb(pid);
    console.log(`\nsoak: ${minutes} min of mixed load (${CLIENTS} clients: create, every other one sent, two reads, ${PAUSE_MS} ms pause; a webhook endpoint on invoice.created)`);
    console.log(`  minute  0: resident ${atRest?.rss} MB (peak so far ${atRest?.peak} MB)`);
    const perMinute: number[] = [];
    let minute = 0;
    const ticker = setInterval(() => {
      const now = residentMb(pid);
      minute++;
      perMinute.push(now?.rss ?? 0);
      console.log(`  minute ${String(minute).padStart(2)}: resident ${now?.rss} MB (peak so far ${now?.peak} MB)   so far: ${counts.creates} creates, ${counts.sends} sends, ${counts.reads} reads, ${hooks} webhooks received, ${counts.failures} failed`);
      // by thread at the first minute and the last: which one grew
      if (minute === 1 || minute === Math.floor(minutes)) for (const line of threadLines(started.probeFile)) console.log(line);
    }, 60_000);
    await Promise.all(Array.from({ length: CLIENTS }, client));
    clearInterval(ticker);
    const first = perMinute[0] ?? 0;
    const later = perMinute.slice(1);
    if (later.length > 0) console.log(`  growth after the first minute: ${Math.max(...later) - first} MB at most (minute 1: ${first} MB, last: ${later.at(-1)} MB)`);
    console.log(`  ${cpu()}`);
  } finally {
    started.stopSampling();
    await stopService(started.child);
    receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
