// `npm run campaign -- pg-restart`: Postgres restarted in immediate mode (`pg_ctlcluster … -m
// immediate restart`: no checkpoint, crash recovery on start) 30 s into a 2-minute mixed load. The
// service keeps running and must reconnect by itself. CAUTION: the local Postgres is shared; the
// restart takes a second or two, once per run.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { check } from '../support/checker.ts';
import { followerLag, lagZero } from '../support/lag.ts';
import { startLoad, type Answer } from '../support/load.ts';
import { readRecords, Records } from '../support/records.ts';
import { startReceiver } from '../support/receiver.ts';
import { CampaignService, POSTGRES_ADMIN_URL } from '../support/service.ts';

const run$ = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REQUEST_TIMEOUT_MS = 30_000;

/** The local cluster's version (Debian layout: /etc/postgresql/<version>/main). */
async function clusterVersion(): Promise<string> {
  const versions = (await readdir('/etc/postgresql')).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('no Postgres cluster under /etc/postgresql');
  return versions[0];
}

/** Until Postgres answers SELECT 1 again; ms since the epoch. */
async function postgresBack(withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return Date.now();
    } catch {
      await sleep(50);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`Postgres not back within ${withinMs} ms`);
}

/** A failure's body is documented when it is the native error shape or the SAPI envelope. */
function documented(answer: Answer): boolean {
  const body = answer.body as { detail?: { error?: unknown }; error?: { code?: unknown } } | null;
  if (answer.path.startsWith('/sapi')) return typeof body?.error?.code === 'string';
  return typeof body?.detail?.error === 'string';
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const startedAt = new Date();
  const figures: Figure[] = [];
  const notes: string[] = [];
  const scope = 'postgres';
  const durationMs = (options.quick ? 60 : 120) * 1000;
  const restartAtMs = options.quick ? 20_000 : 30_000;
  const recordsDir = await mkdtemp(path.join(tmpdir(), 'campaign-records-'));
  const records = new Records(path.join(recordsDir, 'pg-restart.jsonl'));
  const log = (line: string) => console.log(`[pg-restart] ${line}`);
  const service = await CampaignService.create('postgres', { RATE_LIMIT: 'off', REDIS_URL: '' });
  const receiver = await startReceiver();
  const answers: (Answer & { arrivedAt: number })[] = [];
  try {
    const load = await startLoad({
      baseUrls: [service.root], credentials: service.credentials, seed: options.seed, records, webhookUrl: receiver.url, requestTimeoutMs: REQUEST_TIMEOUT_MS,
      onAnswer: (answer) => answers.push({ ...answer, arrivedAt: Date.now() }),
    });
    const started = Date.now();
    await sleep(restartAtMs);
    const version = await clusterVersion();
    const down = Date.now();
    log(`pg_ctlcluster --skip-systemctl-redirect -m immediate ${version} main restart`);
    await run$('pg_ctlcluster', ['--skip-systemctl-redirect', '-m', 'immediate', version, 'main', 'restart']);
    const back = await postgresBack(60_000);
    log(`Postgres back after ${((back - down) / 1000).toFixed(1)} s`);
    // lags from now on: the first moment both are 0 again
    let lagBackAt: number | null = null;
    const watching = (async () => {
      while (lagBackAt === null && Date.now() < back + 300_000) {
        const lag = await followerLag(service.root);
        if (lag && lag.projector === 0 && lag.reactor === 0) lagBackAt = Date.now();
        else await sleep(250);
      }
    })();
    await sleep(Math.max(0, started + durationMs - Date.now()));
    const summary = await load.stop();
    await records.close();
    await watching;
    await lagZero(service.root, 120_000, ['projector']);
    const serviceAlive = service.child?.exitCode === null && service.child.signalCode === null;
    if (!serviceAlive) notes.push(`the service exited (${service.child?.exitCode ?? service.child?.signalCode}); its last lines: ${service.output.slice(-15).join(' | ').slice(0, 3000)}`);
    const warnings = service.output.filter((l) => l.includes('"level":50') || l.includes('"level":40')).length;
    notes.push(`service log lines at warn or error level: ${warnings}`);
    await service.stop();

    const isCommand = (a: Answer) => a.method !== 'GET' && a.action !== 'setup' && a.action !== 'reload';
    const firstSuccess = answers.filter((a) => isCommand(a) && a.status >= 200 && a.status < 300 && a.arrivedAt >= back).sort((a, b) => a.arrivedAt - b.arrivedAt)[0];
    const firstOk = firstSuccess ? firstSuccess.arrivedAt : null;
    // the outage: from the restart command until the first successful command afterwards
    const failed = answers.filter((a) => a.arrivedAt >= down && (firstOk === null || a.sentAt <= firstOk) && (a.status === 0 || a.status >= 500));
    const byStatus: Record<string, number> = {};
    for (const a of failed) {
      const key = a.status === 0 ? `no answer (${a.error ?? '?'})` : `${a.status} ${a.code ?? '(no code)'}`;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
    }
    const undocumented = failed.filter((a) => a.status >= 500 && !documented(a));
    // the database out of reach is 503 service_unavailable with Retry-After; a 500 is a fault of ours
    const internal = failed.filter((a) => a.status === 500).length;
    const hung = answers.filter((a) => a.status === 0 && (a.error ?? '').startsWith('no answer within')).length;
    const slowest = Math.max(0, ...answers.filter((a) => a.sentAt >= down - 5_000 && (firstOk === null || a.sentAt <= firstOk + 5_000)).map((a) => a.ms));
    for (const a of undocumented.slice(0, 5)) notes.push(`undocumented ${a.status} body on ${a.method} ${a.path}: ${JSON.stringify(a.body).slice(0, 300)}`);
    notes.push(`load: ${summary.requests} requests in ${summary.seconds.toFixed(0)} s, by status ${JSON.stringify(summary.byStatus)}, network errors ${JSON.stringify(summary.errors)}`);
    notes.push(`Postgres down for ${((back - down) / 1000).toFixed(1)} s (restart command to SELECT 1)`);

    const result = await check(service, await readRecords(records.file));
    for (const l of result.lost.slice(0, 20)) notes.push(`LOST ${l.record.kind} ${l.record.id} v${l.record.version ?? '-'} (${l.where}: ${l.found})`);
    for (const t of result.tables.filter((d) => d.differing > 0)) notes.push(`table ${t.table}: ${t.differing} rows differ (live ${t.live}, rebuilt ${t.rebuilt}); ${t.samples.join(' | ')}`);

    const toFirst = firstOk === null ? null : (firstOk - back) / 1000;
    const toLag = lagBackAt === null ? null : (lagBackAt - back) / 1000;
    figures.push(
      { scope, name: 'service process still running after the restart', value: serviceAlive ? 'yes' : 'no', target: 'yes', ok: serviceAlive },
      { scope, name: 'requests failed during the outage', value: failed.length },
      ...Object.entries(byStatus).map(([status, n]): Figure => ({ scope, name: `  failed: ${status}`, value: n })),
      { scope, name: '5xx answers without a documented error body', value: undocumented.length, target: '0', ok: undocumented.length === 0 },
      { scope, name: '500 answers during the outage (it is 503 with Retry-After)', value: internal, target: '0', ok: internal === 0 },
      { scope, name: `requests without an answer within ${REQUEST_TIMEOUT_MS / 1000} s`, value: hung, target: '0', ok: hung === 0 },
      { scope, name: 'slowest answer around the outage (s)', value: (slowest / 1000).toFixed(1) },
      { scope, name: 'Postgres back → first successful command (s)', value: toFirst === null ? 'never' : toFirst.toFixed(1), target: '≤ 5 s', ok: toFirst !== null && toFirst <= 5 },
      { scope, name: 'commands acknowledged', value: result.acknowledged },
      { scope, name: 'acknowledged commands lost', value: result.lost.length, target: '0', ok: result.lost.length === 0 },
      { scope, name: 'applied but unacknowledged', value: result.appliedUnacknowledged },
      { scope, name: 'Postgres back → projector and reactor lag 0 (s)', value: toLag === null ? 'never' : toLag.toFixed(1), target: 'reached', ok: toLag !== null },
      { scope, name: 'live vs rebuilt read-model rows differing', value: result.diffRows, target: '0', ok: result.diffRows === 0 },
      { scope, name: 'invoice numbers issued twice', value: result.numbersIssuedTwice, target: '0', ok: result.numbersIssuedTwice === 0 },
    );
  } catch (error) {
    notes.push(`the run failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    figures.push({ scope, name: 'run completed', value: 'no', target: 'yes', ok: false });
  } finally {
    await receiver.close();
    await service.remove().catch(() => undefined);
    if (!process.env.CAMPAIGN_KEEP_RECORDS) await rm(recordsDir, { recursive: true, force: true });
  }
  return { name: 'pg-restart', seed: options.seed, startedAt: startedAt.toISOString(), seconds: (Date.now() - startedAt.getTime()) / 1000, figures, notes };
}
