import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CreatorsJob, CreatorsResult } from './bulk-import-clients.ts';
import { onEmbedded, onFreshPostgres } from './databases.ts';
import { startBenchService, type BenchService } from './http-service.ts';
import { cpuProfile, postgresServerCpuMs } from './phases.ts';
import { percentile, watchCpu } from './stats.ts';

/** The issue's file: 2,000 invoices of 5 lines. */
const INVOICES = Number(process.env.BULK_INVOICES ?? 2000);
const LINES = 5;
/** other clients (another organisation) creating invoices meanwhile, each one every 200 ms (40 creates a second in all) */
const CREATORS = 8;
const CREATOR_INTERVAL_MS = 200;
const HEADER = ['invoice_ref', 'issue_date', 'due_date', 'buyer_name', 'buyer_vat_id', 'buyer_city', 'item_name', 'quantity', 'unit_code', 'unit_price', 'vat_rate'];

/** The file a Slovak accountant's spreadsheet would save: ;, decimal comma, invoice-level cells on the first row of each invoice. */
function bulkFile(): string {
  const rows = [HEADER.join(';')];
  for (let i = 0; i < INVOICES; i++) {
    for (let l = 0; l < LINES; l++) {
      const first = l === 0;
      rows.push([
        `BENCH-${i}`, first ? '15.11.2026' : '', first ? '29.11.2026' : '', first ? `Odberateľ ${i % 50} s.r.o.` : '', first ? 'SK2020000004' : '', first ? 'Košice' : '',
        `Položka ${l + 1}`, String(l + 1), 'C62', `${(l % 7) + 1}7,35`, ['23', '19', '5'][l % 3]!,
      ].join(';'));
    }
  }
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

const latency = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${(sorted.at(-1) ?? 0).toFixed(1)} ms   (${sorted.length} creates)`;
};

/** Other clients creating invoices (in another process) while `during` runs. */
async function withCreators<T>(job: CreatorsJob, during: () => Promise<T>): Promise<[T, CreatorsResult]> {
  const child = fork(new URL('./bulk-import-clients.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  const result = new Promise<CreatorsResult>((resolve, reject) => {
    child.once('message', (message: { result?: CreatorsResult; error?: string }) => (message.result ? resolve(message.result) : reject(new Error(message.error))));
    child.once('error', reject);
  });
  child.send(job);
  // let them warm up (connections, the first creates) before measuring anything
  await new Promise((r) => setTimeout(r, 1500));
  child.send('measure');
  try {
    return [await during(), await (child.send('stop'), result)];
  } finally {
    child.kill();
  }
}

async function importOnce(svc: BenchService, file: string): Promise<{ ms: number; job: Record<string, unknown> }> {
  const headers = { 'x-api-key': svc.demo.api_key };
  const company = svc.demo.companies[0]!.id;
  const started = performance.now();
  const sent = await fetch(`${svc.api}/companies/${company}/invoices/bulk-import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: file });
  if (sent.status !== 202) throw new Error(`bulk import answered ${sent.status}: ${await sent.text()}`);
  const { job_id } = (await sent.json()) as { job_id: string };
  for (;;) {
    const job = (await (await fetch(`${svc.api}/companies/${company}/bulk-imports/${job_id}`, { headers })).json()) as Record<string, unknown>;
    if (job['status'] !== 'processing') return { ms: performance.now() - started, job };
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function bench(databaseUrl: string, label: string, onPostgres: boolean): Promise<void> {
  const svc = await startBenchService(databaseUrl);
  try {
    const file = bulkFile();
    const other = svc.demo.second_organisation;
    const creators: CreatorsJob = {
      url: `${svc.api}/companies/${other.company_id}/invoices`, headers: { 'x-api-key': other.api_key, 'content-type': 'application/json' }, clients: CREATORS, intervalMs: CREATOR_INTERVAL_MS,
      body: JSON.stringify({
        issue_date: '2026-11-20', due_date: '2026-12-04', buyer: { name: 'Iný klient s.r.o.', vat_id: 'SK2020000004' },
        lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }, { item_name: 'Materiál', quantity: '3', unit_price: '12.50', vat_rate: '23' }],
      }),
    };
    // the other clients alone, for comparison
    const [, alone] = await withCreators(creators, () => new Promise((r) => setTimeout(r, 5000)));
    const cpu = watchCpu();
    const service = process.cpuUsage();
    // on PGlite the database runs in the service's process: its CPU is in the service's figure
    const postgres = onPostgres ? postgresServerCpuMs() : null;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const [run, during] = await withCreators(creators, async () => {
      loop.enable();
      try {
        const profile = process.env.BULK_CPU_PROFILE;
        return await (profile ? cpuProfile(profile, () => importOnce(svc, file)) : importOnce(svc, file));
      } finally {
        loop.disable();
      }
    });
    const { job } = run;
    console.log(`\n${label}: ${INVOICES * LINES} rows (${INVOICES} invoices × ${LINES} lines, ${(Buffer.byteLength(file) / 1024).toFixed(0)} KiB)`);
    console.log(`  202 → completed: ${(run.ms / 1000).toFixed(2)} s (${(INVOICES / (run.ms / 1000)).toFixed(0)} invoices/s); job: status ${String(job['status'])}, total_rows ${String(job['total_rows'])}, created ${String(job['created'])}, errors ${String(job['errors_total'])}`);
    console.log(`  other clients' creates (${CREATORS} clients, one each every ${CREATOR_INTERVAL_MS} ms):`);
    console.log(`    alone         ${latency(alone.latencies)}   statuses ${JSON.stringify(alone.statuses)}`);
    console.log(`    during import ${latency(during.latencies)}   statuses ${JSON.stringify(during.statuses)}`);
    console.log(`  the service's event loop during the import: delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
    const serviceMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(service));
    const postgresMs = postgres === null ? null : (postgresServerCpuMs() ?? postgres) - postgres;
    console.log(`  CPU per imported invoice (other clients' creates included): service process ${(serviceMs / INVOICES).toFixed(2)} ms${postgresMs === null ? '' : `, Postgres server ${(postgresMs / INVOICES).toFixed(2)} ms (a floor)`}`);
    console.log(`  ${cpu()}`);
    if (job['created'] !== INVOICES) throw new Error(`expected ${INVOICES} invoices created: ${JSON.stringify(job).slice(0, 500)}`);
  } finally {
    await svc.close();
  }
}

/**
 * `npm run bench -- bulk-import [embedded]`: on a fresh database of the local Postgres (DATABASE_URL's server), or on PGlite.
 * BULK_INVOICES=n imports n invoices instead of 2,000; BULK_CPU_PROFILE=file writes the service's CPU profile of the import.
 */
export async function main(args: string[]): Promise<void> {
  if (args.includes('embedded')) await onEmbedded((url) => bench(url, 'PGlite (embedded)', false));
  else await onFreshPostgres((url, host) => bench(url, `Postgres ${host}`, true));
}
