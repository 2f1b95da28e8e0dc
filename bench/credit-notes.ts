import { fork } from 'node:child_process';
import { invoiceStream } from '../events/invoices.ts';
import type { CreditNoteJob, CreditNoteResult, Held } from './credit-note-clients.ts';
import { onEmbedded, onFreshPostgres } from './databases.ts';
import { startBenchService } from './http-service.ts';
import type pg from 'pg';
import { countPostgres, cpuProfile, postgresServerCpuMs, timePhases, type PhaseTimer } from './phases.ts';
import { percentile, watchCpu } from './stats.ts';

const CLIENTS = 16;
/** invoices each client of the distinct-invoice run credits in turn (a few credit notes each, as in life) */
const INVOICES_PER_CLIENT = 40;
/** hot invoices at hand: each takes ~45 credit notes of 50.00, then the clients move to the next */
const HOT_INVOICES = 200;
const RATES = ['23', '19', '5'];

/** Runs credit-note clients in another process, as bench/load.ts does: clients in the service's process would take its event loop. */
function fromAnotherProcess(job: CreditNoteJob): Promise<CreditNoteResult> {
  const child = fork(new URL('./credit-note-clients.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: CreditNoteResult; error?: string }) => {
      if (message.result) resolve(message.result);
      else reject(new Error(`credit-note clients: ${message.error ?? 'no result'}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`credit-note clients exited with ${code} before answering`)));
    child.send(job);
  });
}

/** This process's CPU time (the service's: the clients are elsewhere) per request while `during` runs, and the local Postgres server's. */
async function serviceCpu<T extends CreditNoteResult>(during: () => Promise<T>, requests: (result: T) => number, onPostgres: boolean): Promise<[T, string]> {
  const before = process.cpuUsage();
  const server = onPostgres ? postgresServerCpuMs() : null;
  const result = await during();
  const used = process.cpuUsage(before);
  const serverAfter = onPostgres ? postgresServerCpuMs() : null;
  const n = Math.max(requests(result), 1);
  // on PGlite the database is in the service's process (its own thread counts in process.cpuUsage)
  const serverMs = server === null || serverAfter === null ? 0 : serverAfter - server;
  // a backend that exits takes its CPU time with it (the hot run's conflicts close connections): then nothing is said
  const database = serverMs > 0 ? `, Postgres server processes ${(serverMs / n).toFixed(1)} ms (a floor)` : '';
  return [result, `CPU per request: service process ${((used.user + used.system) / 1000 / n).toFixed(1)} ms${database}`];
}

const latency = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms`;
};

/** `lines` lines across the Slovak rates (line i at RATES[i % 3]). */
function invoicePayload(customerId: string, lines: number) {
  return {
    issue_date: '2026-11-22', due_date: '2026-12-06', customer_id: customerId,
    lines: Array.from({ length: lines }, (_, i) => ({
      item_name: `Položka ${i + 1}`, quantity: String((i % 5) + 1), unit_code: 'C62', unit_price: `${(i % 7) + 1}7.35`, vat_rate: RATES[i % 3]!,
      ...(i % 4 === 3 ? { discount_percentage: '10' } : {}),
    })),
  };
}

async function benchOne(label: string, databaseUrl: string, durationMs: number, onPostgres: boolean): Promise<void> {
  const { services, api, demo, close } = await startBenchService(databaseUrl);
  try {
    const company = `${api}/companies/${demo.companies[0]?.id ?? ''}`;
    const headers = { 'x-api-key': demo.api_key, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
      const answer = await fetch(`${company}${path}`, { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await answer.text();
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
      return { body: JSON.parse(text) as { id: string; version: number; lines: { id: string; vat_rate: string }[] }, headers: answer.headers };
    };
    // no electronic address: its invoices are finished by hand and their credit notes delivered by hand (201), so nothing waits for Peppol
    const customer = (await call('POST', '/customers', { name: 'Bench Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
    const handedOver = async (lines: number): Promise<Held & { lines: { id: string; vat_rate: string }[] }> => {
      const created = (await call('POST', '/invoices', invoicePayload(customer, lines))).body;
      const marked = (await call('POST', `/invoices/${created.id}/mark-sent`, {})).body;
      return { id: created.id, version: marked.version, lines: created.lines };
    };
    const inParallel = async <T>(n: number, make: () => Promise<T>) => {
      const made: T[] = [];
      await Promise.all(Array.from({ length: CLIENTS }, async () => {
        while (made.length < n) made.push(await make());
      }));
      return made.slice(0, n);
    };

    // BENCH_ONLY=a: a) alone (a quicker before/after of the distinct-invoice rate)
    const onlyA = process.env.BENCH_ONLY === 'a';
    process.stdout.write(`\n${label}\n  setting up ${CLIENTS * INVOICES_PER_CLIENT + (onlyA ? 0 : HOT_INVOICES + 1)} invoices finished by hand… `);
    const distinct = await inParallel(CLIENTS * INVOICES_PER_CLIENT, () => handedOver(10));
    const hot = onlyA ? [] : await inParallel(HOT_INVOICES, () => handedOver(10));
    const big = onlyA ? null : await handedOver(200);
    // c)'s invoice: 50 credit notes of every reason but a full reversal, one after another
    let version = big?.version ?? 0;
    for (let i = 0; big && i < 50; i++) {
      const line = big.lines[i * 4]!;
      const body = i % 5 === 4
        ? { reason: 'returned_goods', lines: [{ source_line_id: line.id, quantity: '1' }] }
        : { reason: i % 5 === 3 ? 'price_correction' : 'partial_credit', amounts: [{ vat_rate: RATES[i % 3], gross: `${(i % 9) + 1}.${String(i).padStart(2, '0')}` }] };
      version = Number((await call('POST', `/invoices/${big.id}/credit-notes`, body, { 'if-match': `"${version}"` })).headers.get('x-invoice-version'));
    }
    const events = big ? await services.store.readStream(invoiceStream(big.id)) : [];
    await services.projections.shown([events.at(-1)?.position ?? null], 30_000);
    const allowanceBytes = big ? (await (await fetch(`${company}/invoices/${big.id}/credit-notes/allowance`, { headers })).arrayBuffer()).byteLength : 0;
    console.log('done');

    const small = JSON.stringify({ reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '1.00' }] });
    const perClient = Array.from({ length: CLIENTS }, (_, c) => distinct.slice(c * INVOICES_PER_CLIENT, (c + 1) * INVOICES_PER_CLIENT).map(({ id, version: v }) => ({ id, version: v })));
    // BENCH_PHASES=1: where a) spends its time; BENCH_PROFILE=dir: V8 profiles of the service during a), b) and c) (a.cpuprofile …)
    const phases: PhaseTimer | null = process.env.BENCH_PHASES === '1' ? timePhases([
      ['event store readStream (read + fold input)', services.store, 'readStream'],
      ['event store appendToStreams', services.store, 'appendToStreams'],
      ['number reservation (series.reserve)', services.series, 'reserve'],
      ['countInvoice (usage.submit)', services.usage, 'submit'],
      ['read-your-writes (projections.caughtUp)', services.projections, 'caughtUp'],
      ['read-model queries (readModels.query)', services.readModels, 'query'],
    ]) : null;
    const postgres = process.env.BENCH_PHASES === '1' ? countPostgres((services.store as unknown as { pool?: pg.Pool }).pool ?? null) : null;
    let cpu = watchCpu();
    const runA = () => fromAnotherProcess({ kind: 'distinct', company, headers, clients: CLIENTS, durationMs, invoices: perClient, body: small });
    const profiled = <T>(name: string, during: () => Promise<T>) => (process.env.BENCH_PROFILE ? cpuProfile(`${process.env.BENCH_PROFILE}/${name}.cpuprofile`, during) : during());
    const [a, aCpu] = await serviceCpu(() => profiled('a', runA), (r) => r.latencies.length, onPostgres);
    console.log(`  a) credit notes/s, ${CLIENTS} clients each on its own ${INVOICES_PER_CLIENT} invoices (partial credit of 1.00, If-Match from x-invoice-version): ` +
      `${Math.round((a.counts['201'] ?? 0) / a.seconds)}   ${latency(a.latencies)}   (${a.counts['201'] ?? 0} credit notes)`);
    console.log(`     ${aCpu}; ${cpu()}`);
    if (phases) console.log(phases.report(a.counts['201'] ?? 0, 'credit note').replace(/^/gm, '       '));
    if (postgres) console.log(postgres.report(a.counts['201'] ?? 0, 'credit note').replace(/^/gm, '       '));
    postgres?.reset();
    if (!big) return;

    // the hot invoices are shared by the two runs: the second goes on where the first left off
    const hotLeft = hot.map(({ id, version: v }) => ({ id, version: v }));
    for (const on412 of ['reload', 'current_version'] as const) {
      cpu = watchCpu();
      const hotJob: CreditNoteJob = { kind: 'hot', company, headers, clients: CLIENTS, durationMs, invoices: hotLeft, on412, body: JSON.stringify({ reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '50.00' }] }) };
      const [b, bCpu] = await serviceCpu(() => profiled(`b-${on412}`, () => fromAnotherProcess(hotJob)), (r) => r.latencies.length, onPostgres);
      const wins = b.counts['201'] ?? 0;
      console.log(`  b) one hot invoice, ${CLIENTS} clients racing (partial credit of 50.00; on 412 ${on412 === 'reload' ? 'reload the invoice (GET)' : 'take the 412\'s current_version'}; ` +
        `on to the next invoice on 422/409): wins/s ${(wins / b.seconds).toFixed(1)}   ${wins} wins, ${b.counts['412'] ?? 0} × 412, ${b.counts['422'] ?? 0} × 422, ` +
        `${b.counts['409'] ?? 0} × 409 over ${b.seconds.toFixed(1)} s${b.counts['ran out of hot invoices'] ? ' (ran out of hot invoices)' : ''}`);
      console.log(`     per request ${latency(b.latencies)}   first try to win ${latency(b.winLatencies)}`);
      console.log(`     ${bCpu}; ${cpu()}`);
      if (postgres) console.log(postgres.report(b.latencies.length, 'POST').replace(/^/gm, '       '));
      postgres?.reset();
      hotLeft.splice(0, (b.counts.reached ?? 0) + 1); // the one it was on may be spent in part: the next run starts afresh
    }

    for (const clients of [1, CLIENTS]) {
      cpu = watchCpu();
      const runC = () => fromAnotherProcess({ kind: 'allowance', company, headers, clients, durationMs: Math.min(durationMs, 5000), invoice: big.id });
      const [c, cCpu] = await serviceCpu(() => profiled(`c-${clients}`, runC), (r) => r.latencies.length, onPostgres);
      console.log(`  c) allowance GET of a 200-line invoice with 50 credit notes (${Math.round(allowanceBytes / 1024)} KB), ${clients} client(s): ` +
        `${Math.round((c.counts['200'] ?? 0) / c.seconds)}/s   ${latency(c.latencies)}`);
      console.log(`     ${cCpu}; ${cpu()}`);
      if (postgres) console.log(postgres.report(c.latencies.length, 'GET').replace(/^/gm, '       '));
      postgres?.reset();
    }
  } finally {
    await close();
  }
}

/**
 * `npm run bench -- credit-notes [seconds] [pglite|postgres]` (issue 16 item 10), over real HTTP on
 * an invoice finished by hand (credit notes delivered by hand, 201): a) credit notes/s with 16
 * clients on distinct invoices, b) the same on one hot invoice (wins, 412s, 422s), c) allowance
 * GET p50/p99 for a 200-line invoice with 50 credit notes. Both databases unless one is named, each
 * fresh. Targets (Postgres): >= 300 credit notes/s at p99 <= 150 ms; allowance p99 <= 20 ms.
 * Each figure comes with the CPU it took per request (the service's process, and the Postgres
 * server's), which says more than the rate on a shared machine. BENCH_PHASES=1 adds where a)'s
 * time goes (wall time in the store, the series, the usage count, read-your-writes, read-model
 * queries) and the statements sent; BENCH_PROFILE=dir writes V8 CPU profiles of each run.
 */
export async function main(args: string[]): Promise<void> {
  const durationMs = Number(args[0] ?? 10) * 1000;
  const only = args[1];
  if (only !== 'postgres') await onEmbedded((url) => benchOne('PGlite (embedded, in memory)', url, durationMs, false));
  if (only === 'pglite') return;
  await onFreshPostgres((url, host) => benchOne(`Postgres (${host}, fresh database)`, url, durationMs, true));
}
