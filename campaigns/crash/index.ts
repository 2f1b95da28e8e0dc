// `npm run campaign -- crash`: kill -9 under the mixed load. The service runs as its own process
// group; at seeded random intervals of 15-45 s it gets SIGKILL and is started again on the same
// data, while 32 clients keep going (a refused request is unacknowledged and retried later). After
// the run the checker looks for every acknowledged answer in the event store and the read models,
// counts invoice numbers issued twice, and diffs each live read model against one rebuilt from
// history. On PGlite (embedded, DATA_DIR) and on Postgres.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Seeded } from '../../test/ubl/support/seeded.ts';
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { check } from '../support/checker.ts';
import { lagZero } from '../support/lag.ts';
import { startLoad } from '../support/load.ts';
import { readRecords, Records } from '../support/records.ts';
import { startReceiver } from '../support/receiver.ts';
import { CampaignService, type Database } from '../support/service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
};

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const startedAt = new Date();
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const database of options.databases) {
    try {
      figures.push(...(await crashOn(database, options, notes)));
    } catch (error) {
      notes.push(`${database}: the run failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      figures.push({ scope: database, name: 'run completed', value: 'no', target: 'yes', ok: false });
    }
  }
  return { name: 'crash', seed: options.seed, startedAt: startedAt.toISOString(), seconds: (Date.now() - startedAt.getTime()) / 1000, figures, notes };
}

async function crashOn(database: Database, options: CampaignOptions, notes: string[]): Promise<Figure[]> {
  const durationMs = (options.quick ? 60 : 300) * 1000;
  const random = new Seeded(options.seed);
  const log = (line: string) => console.log(`[crash ${database}] ${line}`);
  const recordsDir = await mkdtemp(path.join(tmpdir(), 'campaign-records-'));
  const records = new Records(path.join(recordsDir, `crash-${database}.jsonl`));
  // no Redis: the limiter's buckets in memory, and off, so 32 clients on two keys are not refused
  const service = await CampaignService.create(database, { RATE_LIMIT: 'off', REDIS_URL: '' });
  const receiver = await startReceiver();
  const restarts: number[] = [];
  try {
    log(`service up on ${service.root}; records in ${records.file}`);
    const load = await startLoad({ baseUrls: [service.root], credentials: service.credentials, seed: options.seed, records, webhookUrl: receiver.url });
    const started = Date.now();
    for (;;) {
      const wait = random.int(15_000, 45_000);
      if (Date.now() + wait > started + durationMs) break;
      await sleep(wait);
      await service.kill();
      log(`SIGKILL at ${((Date.now() - started) / 1000).toFixed(0)} s (${load.summary().acknowledged} acknowledged so far)`);
      const ms = await service.start();
      restarts.push(ms);
      log(`healthy again after ${(ms / 1000).toFixed(1)} s`);
    }
    await sleep(Math.max(0, started + durationMs - Date.now()));
    const summary = await load.stop();
    await records.close();
    log(`load stopped: ${summary.requests} requests, ${summary.acknowledged} acknowledged, by status ${JSON.stringify(summary.byStatus)}`);
    notes.push(`${database}: ${summary.requests} requests in ${summary.seconds.toFixed(0)} s, by status ${JSON.stringify(summary.byStatus)}; network errors ${JSON.stringify(summary.errors)}; credit notes that lost an If-Match race (412): ${summary.raceLosses}`);
    // the read models catch up before the clean stop, so a read-model row not shown yet is not taken for lost
    const caughtUp = await lagZero(service.root, 120_000, ['projector']);
    if (caughtUp === null) notes.push(`${database}: projectors still lagging 120 s after the load stopped`);
    await service.stop();

    const logged = await readRecords(records.file);
    const result = await check(service, logged);
    for (const l of result.lost.slice(0, 20)) notes.push(`${database}: LOST ${l.record.kind} ${l.record.id} v${l.record.version ?? '-'} (${l.where}: ${l.found})`);
    for (const t of result.tables.filter((d) => d.differing > 0)) notes.push(`${database}: table ${t.table}: ${t.differing} rows differ (live ${t.live}, rebuilt ${t.rebuilt}); ${t.samples.join(' | ')}`);
    notes.push(`${database}: tables compared live vs rebuilt: ${result.tables.map((t) => `${t.table} ${t.live}`).join(', ')}`);
    notes.push(`${database}: webhook receiver raw arrivals ${receiver.arrivals()}, distinct event ids ${receiver.byEventId().size}`);
    const kills = restarts.length;
    // requests a kill cut off (reset, hang-up): the most that can be applied without an answer
    const cut = Object.entries(summary.errors).filter(([e]) => e !== 'ECONNREFUSED' && !e.startsWith('client ')).reduce((sum, [, n]) => sum + n, 0);
    return [
      { scope: database, name: 'kills (SIGKILL of the process group)', value: kills, target: '≥ 1', ok: kills >= 1 },
      { scope: database, name: 'commands acknowledged', value: result.acknowledged },
      { scope: database, name: 'acknowledged commands found', value: result.found },
      { scope: database, name: 'acknowledged commands lost', value: result.lost.length, target: '0', ok: result.lost.length === 0 },
      { scope: database, name: 'applied but unacknowledged', value: result.appliedUnacknowledged },
      { scope: database, name: 'requests cut off by a kill (reset or hang-up)', value: cut },
      { scope: database, name: 'live vs rebuilt read-model rows differing', value: result.diffRows, target: '0', ok: result.diffRows === 0 },
      { scope: database, name: 'invoice numbers issued twice', value: result.numbersIssuedTwice, target: '0', ok: result.numbersIssuedTwice === 0 },
      { scope: database, name: 'restart to health, max (s)', value: kills ? (Math.max(...restarts) / 1000).toFixed(1) : '-' },
      { scope: database, name: 'restart to health, median (s)', value: kills ? (median(restarts) / 1000).toFixed(1) : '-' },
    ];
  } finally {
    await receiver.close();
    await service.remove().catch(() => undefined);
    if (!process.env.CAMPAIGN_KEEP_RECORDS) await rm(recordsDir, { recursive: true, force: true });
  }
}
