// `npm run campaign -- redis-down`: Redis (the rate limiter's shared buckets) stopped for 60 s
// under the mixed load, with limiting on. The spec: an unreachable bucket store lets requests
// through. The limiter must not wait per request on a dead connection, must warn at a bounded
// rate, and must limit again soon after Redis is back, with the spec's 429. CAUTION: the local
// Redis is shared; it is started again in a finally, whatever happens (the command .ci/run uses).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { percentile } from '../../bench/stats.ts';
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { startLoad, type Answer } from '../support/load.ts';
import { Records } from '../support/records.ts';
import { startReceiver } from '../support/receiver.ts';
import { CampaignService } from '../support/service.ts';

const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REDIS_URL = 'redis://127.0.0.1:6379';
const WARNING = 'rate limit store unreachable';

async function redisUp(): Promise<boolean> {
  try {
    return (await exec('redis-cli', ['-h', '127.0.0.1', 'ping'])).stdout.trim() === 'PONG';
  } catch {
    return false;
  }
}

/** Starts Redis the way .ci/run does, unless it answers already; resolves once it answers PING. */
async function startRedis(): Promise<number> {
  if (!(await redisUp())) {
    await exec('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no', '--dir', '/var/lib/redis', '--logfile', '/var/log/redis/ci.log']);
  }
  for (let i = 0; i < 200; i++) {
    if (await redisUp()) return Date.now();
    await sleep(50);
  }
  throw new Error('Redis did not answer PING within 10 s of its start');
}

async function bucketsInRedis(prefix: string): Promise<number> {
  try {
    const { stdout } = await exec('redis-cli', ['-h', '127.0.0.1', '--scan', '--pattern', `${prefix}*`]);
    return stdout.split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** GET with one API key as fast as `concurrency` connections allow, until `until()`; the answers. */
async function hammer(url: string, key: string, concurrency: number, until: () => boolean, seen: (status: number, body: string, headers: http.IncomingHttpHeaders) => void): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (!until()) {
      await new Promise<void>((resolve) => {
        const request = http.get({ agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers: { 'x-api-key': key } }, (response) => {
          let body = '';
          response.on('data', (c: Buffer) => (body += c.toString()));
          response.on('end', () => {
            seen(response.statusCode ?? 0, body, response.headers);
            resolve();
          });
        });
        request.on('error', () => resolve());
      });
    }
  }));
  agent.destroy();
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const startedAt = new Date();
  const figures: Figure[] = [];
  const notes: string[] = [];
  const scope = 'redis';
  const beforeMs = options.quick ? 15_000 : 30_000;
  const outageMs = options.quick ? 20_000 : 60_000;
  const afterMs = options.quick ? 15_000 : 30_000;
  const prefix = `campaign-redis-down-${options.seed}-${Date.now()}:`;
  const recordsDir = await mkdtemp(path.join(tmpdir(), 'campaign-records-'));
  const records = new Records(path.join(recordsDir, 'redis-down.jsonl'));
  const log = (line: string) => console.log(`[redis-down] ${line}`);
  if (!(await redisUp())) await startRedis();
  // the embedded default, limiting on, buckets in the shared Redis under a prefix of this run
  const service = await CampaignService.create('pglite', { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix });
  const receiver = await startReceiver();
  const answers: (Answer & { arrivedAt: number })[] = [];
  let redisStopped = false;
  try {
    // one API key per client (each has the plan's 120 rpm), and the clients paced below that, so
    // the load is served, not refused, before the outage; a key of its own drives the 429 check
    const demo = service.credentials;
    const keyFor = async (key: string, name: string): Promise<string> => {
      const response = await fetch(`${service.root}/api/v1/api-keys`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      const body = (await response.json()) as { api_key?: string };
      if (response.status !== 201 || !body.api_key) throw new Error(`API key: ${response.status} ${JSON.stringify(body)}`);
      return body.api_key;
    };
    const keys = { a: [] as string[], b: [] as string[] };
    for (let i = 0; i < 8; i++) {
      keys.a.push(...(await Promise.all([0, 1, 2].map((j) => keyFor(demo.api_key, `campaign A ${i}-${j}`)))));
      keys.b.push(await keyFor(demo.second_organisation.api_key, `campaign B ${i}`));
    }
    const probeKey = await keyFor(demo.second_organisation.api_key, 'campaign probe');
    const load = await startLoad({
      baseUrls: [service.root], credentials: demo, seed: options.seed, records, webhookUrl: receiver.url, apiKeys: keys, paceMs: 1000,
      mix: { 'sapi-send': 2, 'sapi-receive': 1 }, requestTimeoutMs: 30_000,
      onAnswer: (answer) => answers.push({ ...answer, arrivedAt: Date.now() }),
    });
    await sleep(beforeMs);
    const outputBefore = service.output.length;
    const down = Date.now();
    log('redis-cli shutdown nosave');
    redisStopped = true;
    await exec('redis-cli', ['-h', '127.0.0.1', 'shutdown', 'nosave']).catch(() => undefined); // the connection closes as it stops
    // the probe key during the outage: unlimited, so well past its burst of 200
    let probeDuring = 0;
    let probeRefusedDuring = 0;
    const probeUrl = `${service.root}/api/v1/companies/${demo.second_organisation.company_id}/customers?page_size=1`;
    await hammer(probeUrl, probeKey, 4, () => Date.now() > down + outageMs, (status) => {
      probeDuring++;
      if (status === 429) probeRefusedDuring++;
    });
    const back = await startRedis();
    redisStopped = false;
    const outputDuring = service.output.slice(outputBefore);
    log(`Redis back after ${((back - down) / 1000).toFixed(1)} s`);
    // limiting resumes: the first bucket written to the new Redis, and the probe key's first 429
    let bucketAt: number | null = null;
    const watchBuckets = (async () => {
      while (bucketAt === null && Date.now() < back + 60_000) {
        if ((await bucketsInRedis(prefix)) > 0) bucketAt = Date.now();
        else await sleep(100);
      }
    })();
    let first429: { at: number; body: string; headers: http.IncomingHttpHeaders } | null = null;
    const after429: { status: number; ok: boolean }[] = [];
    await hammer(probeUrl, probeKey, 4, () => (first429 !== null && after429.length >= 50) || Date.now() > back + 60_000, (status, body, headers) => {
      if (status !== 429) return; // a token refilled since (2 a second): served, as it should be
      first429 ??= { at: Date.now(), body, headers };
      after429.push({ status, ok: correct429(body, headers) });
    });
    await watchBuckets;
    const remaining = back + afterMs - Date.now();
    if (remaining > 0) await sleep(remaining);
    const summary = await load.stop();
    await records.close();

    const window = (from: number, to: number) => answers.filter((a) => a.sentAt >= from && a.sentAt < to && a.status > 0).map((a) => a.ms).sort((x, y) => x - y);
    const before = window(down - beforeMs, down);
    const during = window(down, back);
    const p99Before = percentile(before, 99);
    const p99During = percentile(during, 99);
    const fiveHundreds = answers.filter((a) => a.status >= 500);
    const served = answers.filter((a) => a.status > 0).length;
    const warnings = outputDuring.filter((l) => l.includes(WARNING)).length;
    const outageSeconds = (back - down) / 1000;
    // each limiter (the native door's and the SAPI door's) warns at most once per 10 s
    const warningBound = 2 * (Math.ceil(outageSeconds / 10) + 1);
    const f429 = first429 as { at: number; body: string; headers: http.IncomingHttpHeaders } | null;
    const resumed = bucketAt === null ? null : ((bucketAt as number) - back) / 1000;
    const to429 = f429 === null ? null : (f429.at - back) / 1000;
    const correct = after429.filter((r) => r.ok).length;
    notes.push(`load: ${summary.requests} requests, by status ${JSON.stringify(summary.byStatus)}, network errors ${JSON.stringify(summary.errors)}`);
    notes.push(`latency samples: before ${before.length}, during ${during.length}; p50 before ${percentile(before, 50).toFixed(0)} ms, during ${percentile(during, 50).toFixed(0)} ms`);
    notes.push(`probe key during the outage: ${probeDuring} requests, ${probeRefusedDuring} refused (429)`);
    if (f429) notes.push(`first 429 after Redis returned: Retry-After ${String(f429.headers['retry-after'])}, body ${f429.body.slice(0, 300)}`);
    for (const a of fiveHundreds.slice(0, 5)) notes.push(`5xx: ${a.status} ${a.method} ${a.path} ${JSON.stringify(a.body).slice(0, 200)}`);
    figures.push(
      { scope, name: 'Redis down (s)', value: outageSeconds.toFixed(1) },
      { scope, name: 'requests served (answered)', value: served },
      { scope, name: 'requests served while Redis was down (load + probe)', value: during.length + probeDuring },
      { scope, name: 'probe key past its burst while down: 429s', value: probeRefusedDuring, target: '0 (limiter lets requests through)', ok: probeRefusedDuring === 0 },
      { scope, name: '5xx', value: fiveHundreds.length, target: '0', ok: fiveHundreds.length === 0 },
      { scope, name: 'p99 before (ms)', value: p99Before.toFixed(0) },
      { scope, name: 'p99 during (ms)', value: p99During.toFixed(0), target: `≤ before + 20 ms (${(p99Before + 20).toFixed(0)})`, ok: p99During <= p99Before + 20 },
      { scope, name: '"store unreachable" warnings while down', value: warnings, target: `≤ ${warningBound} (one per 10 s per door)`, ok: warnings <= warningBound },
      { scope, name: 'Redis back → limiting resumes (first bucket written, s)', value: resumed === null ? 'never' : resumed.toFixed(1), target: '≤ 10 s', ok: resumed !== null && resumed <= 10 },
      { scope, name: 'Redis back → probe key refused (429, s; includes draining its burst)', value: to429 === null ? 'never' : to429.toFixed(1) },
      { scope, name: '429s after Redis returned with the spec body and Retry-After', value: `${correct}/${after429.length}`, target: 'all', ok: after429.length > 0 && correct === after429.length },
    );
  } catch (error) {
    notes.push(`the run failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    figures.push({ scope, name: 'run completed', value: 'no', target: 'yes', ok: false });
  } finally {
    // the shared Redis comes back whatever happened
    if (redisStopped || !(await redisUp())) await startRedis().catch((error: unknown) => notes.push(`REDIS NOT RESTARTED: ${String(error)}`));
    await receiver.close();
    await service.remove().catch(() => undefined);
    await rm(recordsDir, { recursive: true, force: true });
  }
  return { name: 'redis-down', seed: options.seed, startedAt: startedAt.toISOString(), seconds: (Date.now() - startedAt.getTime()) / 1000, figures, notes };
}

/** The spec's 429: top-level body error rate_limit_exceeded, retry_after, limit, plan, upgrade_url; header Retry-After. */
function correct429(body: string, headers: http.IncomingHttpHeaders): boolean {
  try {
    const b = JSON.parse(body) as Record<string, unknown>;
    return b.error === 'rate_limit_exceeded' && typeof b.retry_after === 'number' && b.limit !== undefined && typeof b.plan === 'string' && typeof b.upgrade_url === 'string'
      && String(headers['retry-after']) === String(b.retry_after);
  } catch {
    return false;
  }
}
