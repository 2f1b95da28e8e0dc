import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { onEmbedded, onFreshPostgres } from './databases.ts';
import { startBenchService } from './http-service.ts';
import { loadFromAnotherProcess } from './load.ts';
import { categorise, printTable, profiled, type Category } from './cpu-profile.ts';
import { pgbenchEventInserts } from './pgbench.ts';
import { watchServiceCpu } from './process-cpu.ts';
import { percentile, watchCpu, watchMemory } from './stats.ts';

/** A 10-line invoice across the Slovak rates, as a client would post it. */
function payload(customerId: string) {
  const rates = ['23', '23', '19', '5', '23', '19', '23', '5', '23', '23'];
  return JSON.stringify({
    issue_date: '2026-11-22',
    due_date: '2026-12-06',
    customer_id: customerId,
    lines: rates.map((vat_rate, i) => ({ item_name: `Položka ${i + 1}`, quantity: String(i + 1), unit_code: 'C62', unit_price: `${(i + 1) * 7}.35`, vat_rate })),
  });
}

/** A create's parts, as the profile table names them (the deepest frame that names one wins). */
const CREATE_PARTS: Category[] = [
  { name: 'authentication (API key)', frame: /authenticateFor|callerResolver|src\/modules\/identity\// },
  { name: 'body parsing and schema validation', frame: /node_modules\/ajv\/|src\/platform\/http\/(body|validators|ajv|json-error)\.ts/ },
  { name: 'decider and rules (totals, VAT, checks)', frame: /\/commands\/invoices\// },
  { name: 'company and customer lookups', frame: /src\/modules\/invoices\/lookups\.ts|contentDefaults|findCompany|buyerOf/ },
  { name: 'numbering and appends (group commit, event store)', frame: /src\/platform\/handling\/|src\/platform\/eventstore\/|series-reservations\.ts/ },
  { name: 'read-your-writes wait', frame: /caughtUp|current-read\.ts/ },
  { name: 'projection (read models)', frame: /src\/platform\/readmodel\/|\/projections\// },
  { name: 'reactors (webhooks, delivery, schedules)', frame: /src\/platform\/(reactors|schedule|followers)\/|src\/modules\/webhooks\// },
  { name: 'response (body, headers)', frame: /invoiceBody|createdInvoiceRow|applyResult|respond / },
];
const LEAF_PARTS: Category[] = [
  { name: 'database driver (pg, typeorm: answers parsed off the socket)', frame: /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+|typeorm)\// },
  { name: 'socket writes and reads (syscalls)', frame: /^(writev|writeBuffer|writeUtf8String|utf8Write|onStreamRead|utf8Slice) |stream_base_commons|node:net/ },
  { name: 'HTTP server (node:http, koa)', frame: /node:_http|node_modules\/(koa|@koa|koa-compose|co-body|raw-body)\// },
  { name: 'garbage collection', frame: /^\(garbage collector\)/ },
  { name: 'promises, timers, rxjs', frame: /node_modules\/rxjs\/|runMicrotasks|task_queues|node:internal\/timers/ },
];

interface Figure {
  rate: number;
  p99: number;
}

async function benchOne(label: string, databaseUrl: string, onServer: boolean, durationMs: number, clients: number, profile: boolean): Promise<Figure> {
  const { api, demo, close } = await startBenchService(databaseUrl);
  try {
    const company = demo.companies[0]?.id ?? '';
    const headers = { 'x-api-key': demo.api_key, 'content-type': 'application/json' };
    const customer = await fetch(`${api}/companies/${company}/customers`, {
      method: 'POST', headers, body: JSON.stringify({ name: 'Bench Odberateľ s.r.o.', vat_id: '', peppol_id: '9950:sk2020000004svctest' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const body = payload(customer.id);
    const url = `${api}/companies/${company}/invoices`;
    const memory = watchMemory();
    const cpu = watchCpu();
    const share = await watchServiceCpu(onServer ? databaseUrl : null);
    const load = () => loadFromAnotherProcess({ url, headers, body, expectStatus: 201, clients, durationMs, warmup: 20 });
    const run = profile ? await profiled(load) : { result: await load(), profile: null };
    const { latencies, seconds } = run.result;
    const machine = cpu();
    const used = await share();
    latencies.sort((a, b) => a - b);
    const rate = latencies.length / seconds;
    const p99 = percentile(latencies, 99);
    const perCreate = (s: number) => `${((1000 * s) / latencies.length).toFixed(2)} ms`;
    console.log(`\n${label}`);
    console.log(`  creates/s over HTTP (${clients} keep-alive clients in another process, 10-line invoices): ${Math.round(rate)}   ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${p99.toFixed(1)} ms   (${latencies.length} creates)`);
    console.log(`  CPU per create: the service ${perCreate(used.service)}` + (used.postgres > 0 ? `, its Postgres backends ${perCreate(used.postgres)}` : ' (the database runs inside it)'));
    console.log(`  ${machine}`);
    console.log(`  ${memory()}`);
    if (run.profile && process.env.BENCH_PROFILE_FILE) (await import('node:fs')).writeFileSync(process.env.BENCH_PROFILE_FILE, JSON.stringify(run.profile));
    if (run.profile) printTable('where a create\'s CPU goes in the service', categorise(run.profile, CREATE_PARTS, LEAF_PARTS), latencies.length);
    return { rate, p99 };
  } finally {
    await close();
  }
}

/** How long q takes on the invoice list at a million rows (trigram index), Postgres only. */
async function benchSearch(url: string): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const org = randomUUID();
    await db.query(
      `INSERT INTO invoices (id, organisation_id, company_id, workspace_id, invoice_number, invoice_type, status, issue_date, currency_code,
         supplier_name, buyer_name, buyer_vat_id, total_net, total_vat, total_gross, created_by, created_at, updated_at, version, search, document)
       SELECT gen_random_uuid(), $1, $1, $1, '2026' || lpad(n::text, 6, '0'), '380', 'draft', date '2026-01-01' + (n % 365), 'EUR',
         'Dodávateľ s.r.o.', 'Odberateľ ' || md5(n::text), '', 100, 23, 123, 'bench', now(), now(), 0,
         '2026' || lpad(n::text, 6, '0') || ' dodavatel s.r.o. odberatel ' || md5(n::text), '{}'::jsonb
       FROM generate_series(1, 1000000) AS n`,
      [org],
    );
    await db.query('ANALYZE invoices');
    for (const q of ['2026054321', 'odberatel 3f2', 'abc12']) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await db.query(
          `SELECT id FROM invoices WHERE organisation_id = $1 AND search LIKE $2 ORDER BY issue_date DESC, created_at DESC, id LIMIT 20`,
          [org, `%${q}%`],
        );
        await db.query('SELECT count(*) FROM invoices WHERE organisation_id = $1 AND search LIKE $2', [org, `%${q}%`]);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(`  q=${JSON.stringify(q)} over 1,000,000 invoices (page + count): median ${percentile(times, 50).toFixed(1)} ms`);
    }
  } finally {
    await db.end();
  }
}

/**
 * `npm run bench -- invoices [seconds] [pglite|postgres|both] [profile]`: invoice creates over real HTTP with 16 concurrent clients
 * (p50/p99, CPU per create), on Postgres (DATABASE_URL or the local server) beside pgbench's
 * one-row commits with as many clients on the same server, and on the embedded PGlite beside the
 * Postgres figure, each in a fresh database; then the list's q filter at a million rows on Postgres.
 * With `profile`, the service's main thread is profiled during the load and a table shows where a
 * create's CPU goes (cpu-profile.ts; the profiler itself costs a few per cent).
 * Target (issue 41): creates >= 0.15 x pgbench's tps at 16 clients, with p99 <= 50 ms.
 */
export async function main(args: string[]): Promise<void> {
  const durationMs = Number(args[0] ?? 10) * 1000;
  const only = args[1]; // 'pglite' or 'postgres': one of the two, when profiling
  const profile = args.includes('profile');
  const clients = 16;
  let onPostgres: Figure | null = null;
  if (only !== 'pglite') {
    const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const anchor = await pgbenchEventInserts(admin, clients, Math.max(5, durationMs / 1000));
    await onFreshPostgres(async (url, host) => {
      const figure = await benchOne(`Postgres (${host}, fresh database)`, url, true, durationMs, clients, profile);
      onPostgres = figure;
      if (anchor) {
        const ratio = figure.rate / anchor.tps;
        console.log(`  pgbench, same server, same run (${clients} clients, one INSERT of one event row per transaction): ${Math.round(anchor.tps)} tps, latency ${anchor.latencyMs.toFixed(2)} ms`);
        console.log(`  creates / pgbench tps: ${ratio.toFixed(3)} x   (target >= 0.15 x with p99 <= 50 ms: ${ratio >= 0.15 && figure.p99 <= 50 ? 'met' : 'not met'})`);
      } else console.log('  pgbench is not installed: no anchor (apt-get install postgresql-contrib / postgresql-client)');
      if (only !== 'postgres') await benchSearch(url);
    });
  }
  if (only === 'postgres') return;
  await onEmbedded(async (url) => {
    const figure = await benchOne('PGlite (embedded, in memory)', url, false, durationMs, clients, profile);
    if (onPostgres) console.log(`  PGlite / Postgres creates/s: ${(figure.rate / (onPostgres as Figure).rate).toFixed(2)} x`);
  });
}
