// `npm run campaign -- scale`: several service processes on one Postgres and one Redis, behind a
// round-robin balancer this campaign starts (node:http). First creates/s with 1, 2 and 3
// instances; then the mixed 32-client load through the balancer while one instance is killed
// (SIGKILL) every 20 s and started again, every other kill the one holding the follower leases.
// A probe writes through one instance and reads at once through another (read-your-writes), the
// lease moves are timed from pg_locks, and after the run the checker finds every acknowledged
// command, and the database is searched for duplicate side effects. Postgres only: PGlite is one
// process by construction.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, healthy, startService } from '../../test/e2e/support/service-process.ts';
import { Seeded } from '../../test/ubl/support/seeded.ts';
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { check } from '../support/checker.ts';
import { lagZero } from '../support/lag.ts';
import { startLoad } from '../support/load.ts';
import { readRecords, Records } from '../support/records.ts';
import { startReceiver } from '../support/receiver.ts';
import { CampaignService } from '../support/service.ts';
import { duplicateEffects, leaseHolders } from './effects.ts';
import { startRywProbe } from './ryw-probe.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const INSTANCES = 3;
const KILL_EVERY_MS = 20_000;

/** One service process of the deployment: its own port and data directory, the shared database. */
class Instance {
  child: ReturnType<typeof startService> | undefined;
  up = false;
  constructor(readonly index: number, readonly port: number, readonly dataDir: string, readonly env: Record<string, string>, readonly logDir: string) {}
  get root() {
    return `http://127.0.0.1:${this.port}`;
  }
  get pid() {
    return this.child?.pid;
  }
  /**
   * Starts the process and waits for its health; a start that dies first is tried again (twice):
   * the machine's one Postgres is shared, and a restart can meet its connection limit for a moment.
   */
  async start(onRetry: (error: unknown) => void = () => {}): Promise<number> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      this.child = startService('tsx', this.dataDir, this.port, this.env);
      // its log lines, kept with the run when CAMPAIGN_KEEP_RECORDS is set
      const out = createWriteStream(path.join(this.logDir, `instance-${this.index}.log`), { flags: 'a' });
      this.child.stdout?.pipe(out);
      this.child.stderr?.pipe(out);
      try {
        await healthy(this.child, this.port, 300_000);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        onRetry(error);
        await this.kill();
        await sleep(2_000);
      }
    }
    this.up = true;
    return Date.now() - started;
  }
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    this.up = false;
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, signal);
    await exited;
  }
}

/** A round-robin balancer over the instances that are up; a backend that fails mid-request answers 502. */
async function startBalancer(instances: () => Instance[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const live = instances().filter((i) => i.up);
    if (live.length === 0) {
      res.writeHead(503).end();
      return;
    }
    const target = live[next++ % live.length]!;
    const upstream = http.request({ agent, host: '127.0.0.1', port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      agent.destroy();
    }),
  };
}

/**
 * Issue 41: on one 2-core machine three instances cannot be faster than one, but the overhead of
 * running several (hot streams written in turn, positions over NOTIFY) should cost at most a fifth.
 */
function scaleRatio(throughput: readonly number[]): Figure {
  const [one, , three] = throughput;
  const ratio = one && three !== undefined ? three / one : NaN;
  return {
    scope: 'postgres', name: `creates/s with ${INSTANCES} instances / with 1 (same run)`, value: Number.isFinite(ratio) ? ratio.toFixed(2) : '-',
    target: '≥ 0.80', ok: Number.isFinite(ratio) && ratio >= 0.8,
  };
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const startedAt = new Date();
  const notes: string[] = [];
  let figures: Figure[];
  if (options.databases.includes('pglite') && !options.databases.includes('postgres')) {
    notes.push('scale runs on Postgres only: PGlite is one process by construction');
    return { name: 'scale', seed: options.seed, startedAt: startedAt.toISOString(), seconds: 0, figures: [], notes };
  }
  try {
    figures = await scale(options, notes);
  } catch (error) {
    notes.push(`the run failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    figures = [{ scope: 'postgres', name: 'run completed', value: 'no', target: 'yes', ok: false }];
  }
  return { name: 'scale', seed: options.seed, startedAt: startedAt.toISOString(), seconds: (Date.now() - startedAt.getTime()) / 1000, figures, notes };
}

async function scale(options: CampaignOptions, notes: string[]): Promise<Figure[]> {
  const log = (line: string) => console.log(`[scale] ${line}`);
  const random = new Seeded(options.seed);
  const throughputMs = (options.quick ? 10 : 30) * 1000;
  const durationMs = (options.quick ? 70 : 300) * 1000;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // One Redis for all (the limiter's buckets, under a prefix of this run). The limiter itself is
  // off: 32 clients on two API keys would spend their plan's 120 requests a minute in a second.
  // Shared limits are proven by test/limits/shared-limits.test.ts, on Redis and on Postgres.
  const first = await CampaignService.create('postgres', { RATE_LIMIT: 'off', REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: `campaign-scale-${options.seed}:` });
  // the deployment's database, keys and demo; its own process becomes instance 0
  await first.stop();
  const recordsDir = await mkdtemp(path.join(tmpdir(), 'campaign-records-'));
  const records = new Records(path.join(recordsDir, 'scale.jsonl'));
  const receiver = await startReceiver();
  const instances: Instance[] = [];
  // a pool: it reconnects by itself if the shared Postgres restarts under the run
  const admin = new pg.Pool({ connectionString: first.databaseUrl, max: 2 });
  admin.on('error', () => {});
  const balancer = await startBalancer(() => instances);
  try {
    // ---- creates/s with 1, 2 and 3 instances on this machine
    const throughput: number[] = [];
    for (let n = 1; n <= INSTANCES; n++) {
      const dataDir = n === 1 ? first.dataDir : await mkdtemp(path.join(tmpdir(), 'campaign-scale-'));
      const instance = new Instance(n - 1, n === 1 ? first.port : await freePort(), dataDir, first.env, recordsDir);
      instances.push(instance);
      const ms = await instance.start();
      log(`instance ${n - 1} up on ${instance.root} in ${(ms / 1000).toFixed(1)} s`);
      await sleep(1_000); // its leases settle (it takes none while another holds them)
      const scratch = new Records(path.join(recordsDir, `throughput-${n}.jsonl`));
      const load = await startLoad({ baseUrls: [balancer.url], credentials: first.credentials, seed: options.seed + n, records: scratch, mix: { create: 1, edit: 0, send: 0, credit: 0, pay: 0, webhook: 0, 'sapi-send': 0, 'sapi-receive': 0 } });
      await sleep(throughputMs);
      const summary = await load.stop();
      await scratch.close();
      const creates = summary.byStatus['201'] ?? 0;
      throughput.push(creates / summary.seconds);
      log(`${n} instance(s): ${creates} creates in ${summary.seconds.toFixed(1)} s = ${(creates / summary.seconds).toFixed(0)}/s (by status ${JSON.stringify(summary.byStatus)})`);
    }

    // ---- the mixed load with one instance killed every 20 s
    const followers = (await leaseHolders(admin)).length;
    const probe = startRywProbe({ instances: () => instances.filter((i) => i.up).map((i) => i.root), credentials: first.credentials, seed: options.seed });
    const load = await startLoad({ baseUrls: [balancer.url], credentials: first.credentials, seed: options.seed, records, webhookUrl: receiver.url });
    const started = Date.now();
    const leaseMoves: number[] = [];
    const restarts: number[] = [];
    const restarting: Promise<void>[] = [];
    let kills = 0;
    // one kill every 20 s on the clock, the killed instance started again in the background
    for (let tick = 1; started + tick * KILL_EVERY_MS <= started + durationMs; tick++) {
      await sleep(Math.max(0, started + tick * KILL_EVERY_MS - Date.now()));
      const live = instances.filter((i) => i.up);
      if (live.length < 2) {
        notes.push(`tick ${tick}: fewer than two instances up (a restart still under way): no kill`);
        continue;
      }
      const holders = await leaseHolders(admin).catch(() => []);
      const holderPids = new Set(holders.map((h) => h.pid));
      // every other kill takes the instance holding the leases; the others a seeded other live one
      const leader = live.find((i) => i.pid !== undefined && holderPids.has(i.pid));
      const others = live.filter((i) => i !== leader);
      const victim = kills % 2 === 0 && leader ? leader : others[random.int(0, others.length - 1)]!;
      const wasLeader = victim === leader;
      const killedAt = Date.now();
      const killedPid = victim.pid;
      await victim.kill();
      kills++;
      log(`${new Date(killedAt).toISOString()} SIGKILL instance ${victim.index}${wasLeader ? ' (lease holder)' : ''} at ${((killedAt - started) / 1000).toFixed(0)} s; ${load.summary().acknowledged} acknowledged so far`);
      restarting.push((async () => {
        if (wasLeader) {
          const moved = await leasesMoved(admin, killedPid, followers, 60_000);
          if (moved === null) notes.push(`kill ${kills}: the leases did not move within 60 s`);
          else {
            leaseMoves.push(moved);
            log(`leases on another instance ${(moved / 1000).toFixed(2)} s after the kill`);
          }
        }
        const ms = await victim.start((error) => notes.push(`instance ${victim.index} died before it was healthy (started again): ${error instanceof Error ? error.message : String(error)}`));
        restarts.push(ms);
        log(`${new Date().toISOString()} instance ${victim.index} healthy again after ${(ms / 1000).toFixed(1)} s`);
      })());
    }
    await sleep(Math.max(0, started + durationMs - Date.now()));
    await Promise.all(restarting);
    const summary = await load.stop();
    const ryw = await probe.stop();
    await records.close();
    log(`load stopped: ${summary.requests} requests, ${summary.acknowledged} acknowledged, by status ${JSON.stringify(summary.byStatus)}`);
    notes.push(`${summary.requests} requests in ${summary.seconds.toFixed(0)} s through the balancer, by status ${JSON.stringify(summary.byStatus)}; network errors ${JSON.stringify(summary.errors)}; credit-note If-Match races lost: ${summary.raceLosses}`);
    notes.push(`read-your-writes probe: ${ryw.probes} write-then-read pairs on two different instances, ${ryw.skipped} skipped (an instance went down mid-pair), ` +
      `${ryw.behind} answered 503 read_model_behind (the read model did not show the write within the bound, and the answer says so); ` +
      `${ryw.violations.length} violations, ${ryw.afterBound} of them writes answered only after the 3 s read-your-writes bound ran out (a read then waits on the invoice's last event itself): ${ryw.violations.slice(0, 10).join(' | ')}`);
    const leader = instances.find((i) => i.up)!;
    if ((await lagZero(leader.root, 180_000)) === null) notes.push('followers still lagging 180 s after the load stopped');
    // webhook deliveries still due go out before the count
    await sleep(5_000);
    const effects = await duplicateEffects(admin, receiver);
    for (const instance of instances) await instance.kill('SIGTERM');
    await admin.end(); // the checker copies the database as a template: no session may be open on it
    const logged = await readRecords(records.file);
    const result = await check(first, logged);
    for (const l of result.lost.slice(0, 20)) notes.push(`LOST ${l.record.kind} ${l.record.id} v${l.record.version ?? '-'} (${l.where}: ${l.found})`);
    for (const t of result.tables.filter((d) => d.differing > 0)) notes.push(`table ${t.table}: ${t.differing} rows differ (live ${t.live}, rebuilt ${t.rebuilt}); ${t.samples.join(' | ')}`);
    notes.push(`webhooks: ${effects.webhookArrivals} raw arrivals at the receiver (every endpoint the load registered points at it), ${effects.webhookEventIds} distinct event ids, ${effects.webhookDuplicateArrivals} successful deliveries beyond one per endpoint and event id (at least once, each with its one event id)`);
    notes.push(`Peppol retransmissions (same message id sent again after a crash, the receiver drops the copy): ${effects.peppolRetransmissions}`);
    notes.push(
      `creates/s with 1, 2, 3 instances: ${throughput.map((t) => t.toFixed(0)).join(', ')}. This machine has 2 cores shared by every process (the instances, Postgres, ` +
      'Redis, the load and the balancer): more instances add processes competing for the same cores, so this shows the overhead of several instances, not a gain. ' +
      'Across machines the design scales the HTTP and command side (each instance decides and appends on its own; hot streams go through optimistic concurrency), ' +
      'while every projector and reactor runs on one lease holder: the follower work and Postgres itself (one primary for appends and read models) are what one ' +
      'machine must carry. To go further: spread the leases over instances (each takes a share) or partition a follower by stream, read replicas for queries, and ' +
      'the NOTIFY feed (one channel per database) becomes the limit past a few hundred appends per second per instance.',
    );
    const moveMax = leaseMoves.length ? Math.max(...leaseMoves) / 1000 : NaN;
    return [
      { scope: 'postgres', name: 'instances behind the balancer', value: INSTANCES },
      { scope: 'postgres', name: 'kills (SIGKILL, one every 20 s)', value: kills, target: '≥ 1', ok: kills >= 1 },
      { scope: 'postgres', name: 'commands acknowledged', value: result.acknowledged },
      { scope: 'postgres', name: 'acknowledged commands lost', value: result.lost.length, target: '0', ok: result.lost.length === 0 },
      { scope: 'postgres', name: 'live vs rebuilt read-model rows differing', value: result.diffRows, target: '0', ok: result.diffRows === 0 },
      { scope: 'postgres', name: 'invoice numbers issued twice', value: result.numbersIssuedTwice, target: '0', ok: result.numbersIssuedTwice === 0 },
      { scope: 'postgres', name: 'duplicate Peppol messages (message ids per sent document > 1)', value: effects.peppolIdsPerDocument, target: '0', ok: effects.peppolIdsPerDocument === 0 },
      { scope: 'postgres', name: 'duplicate inbound copies (per message id > 1)', value: effects.inboundCopies, target: '0', ok: effects.inboundCopies === 0 },
      { scope: 'postgres', name: 'duplicate FS filings (per document and role > 1)', value: effects.fsFilings, target: '0', ok: effects.fsFilings === 0 },
      { scope: 'postgres', name: 'webhook events under more than one event id', value: effects.webhookEventsWithTwoIds, target: '0', ok: effects.webhookEventsWithTwoIds === 0 },
      { scope: 'postgres', name: 'webhook duplicate deliveries (same endpoint and event id)', value: effects.webhookDuplicateArrivals },
      { scope: 'postgres', name: 'lease moves timed (holder killed)', value: leaseMoves.length, target: '≥ 1', ok: leaseMoves.length >= 1 },
      { scope: 'postgres', name: 'seconds until the leases move, max', value: Number.isFinite(moveMax) ? moveMax.toFixed(2) : '-', target: '≤ 5', ok: Number.isFinite(moveMax) && moveMax <= 5 },
      { scope: 'postgres', name: 'read-your-writes probes (write on one, read on another)', value: ryw.probes, target: '≥ 1', ok: ryw.probes >= 1 },
      { scope: 'postgres', name: 'read-your-writes violations', value: ryw.violations.length, target: '0', ok: ryw.violations.length === 0 },
      { scope: 'postgres', name: 'of which the write waited past the 3 s bound', value: ryw.afterBound },
      { scope: 'postgres', name: 'probe writes answered after 3 s (the read had to wait itself)', value: ryw.slowWrites },
      { scope: 'postgres', name: 'read-your-writes answers 503 read_model_behind (honest, not judged)', value: ryw.behind },
      { scope: 'postgres', name: 'restart to health, max (s)', value: restarts.length ? (Math.max(...restarts) / 1000).toFixed(1) : '-' },
      ...throughput.map((t, i): Figure => ({ scope: 'postgres', name: `creates/s with ${i + 1} instance${i ? 's' : ''} (2 cores, one machine)`, value: t.toFixed(0) })),
      scaleRatio(throughput),
    ];
  } finally {
    for (const instance of instances) await instance.kill().catch(() => undefined);
    await balancer.close();
    if (!admin.ended) await admin.end().catch(() => undefined);
    await receiver.close();
    for (const instance of instances.slice(1)) await rm(instance.dataDir, { recursive: true, force: true });
    await first.remove().catch(() => undefined);
    if (!process.env.CAMPAIGN_KEEP_RECORDS) await rm(recordsDir, { recursive: true, force: true });
  }
}

/** ms from the kill until every follower lease is held by a process other than `killed`; null after `withinMs`. */
async function leasesMoved(admin: pg.Pool, killed: number | undefined, followers: number, withinMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const holders = await leaseHolders(admin).catch(() => []);
    if (holders.length >= followers && holders.every((h) => h.pid !== killed)) return Date.now() - started;
    await sleep(50);
  }
  return null;
}
