// `npm run campaign -- crash-effects [--quick] [--seed N] [--db pglite,postgres]`
//
// Duplicate side effects after a crash (issue 21 item 3). The service runs as its own process
// with the fault hook armed (src/platform/reactors/fault.ts): each life dies by SIGKILL right after one
// kind of side effect (a Peppol transmission, an FS submission, a SAPI-SK leg, a webhook POST) and
// before its outcome is recorded, and is restarted at once, while a focused load (load.ts) sends
// native invoices both ways between the two demo companies, credit notes and SAPI-SK documents
// under Idempotency-Keys, with two webhook endpoints on a loopback receiver. When the load is done
// and every leg has finished, the figures are read from the database (check.ts): a retransmission
// must reuse its message or submission id, so nothing arrives twice as two documents.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openEmbeddedDataDir } from '../../src/platform/db/embedded-default.ts';
import type { DemoCredentials } from '../../src/demo/bootstrap.ts';
import { ephemeralSigningKeyPem } from '../../src/modules/identity/ephemeral-key.ts';
import { EFFECTS } from '../../src/platform/reactors/fault.ts';
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { figures, outstanding } from './check.ts';
import { client, drained, raced, seeded, setUp, type Ack } from './load.ts';
import { build, cli, healthy, spawnService, stopService, type ServiceProcess } from './process.ts';
import { startReceiver } from './receiver.ts';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Database {
  env: NodeJS.ProcessEnv;
  /** a client on the service's database, the service stopped (PGlite admits one process) */
  open(): Promise<{ db: pg.Client; close(): Promise<void> }>;
  drop(): Promise<void>;
}

async function embedded(dataDir: string): Promise<Database> {
  return {
    env: { DATABASE_URL: undefined, EVENTSTORE_URL: undefined },
    async open() {
      const opened = await openEmbeddedDataDir(dataDir);
      const db = new pg.Client({ connectionString: opened.connectionString });
      await db.connect();
      return { db, close: async () => { await db.end(); await opened.close(); } };
    },
    async drop() {},
  };
}

async function freshPostgres(dataDir: string, port: number): Promise<Database> {
  const name = `svc_effects_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(), EVENTSTORE_URL: undefined, JWT_PRIVATE_KEY: await ephemeralSigningKeyPem(), JWT_KEY_ID: 'crash-effects',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), TOTP_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  // the demo, as an operator makes it on a server database
  const demo = cli(['demo'], { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  if (demo.status !== 0) throw new Error(`npm run cli -- demo failed: ${demo.output}`);
  return {
    env,
    async open() {
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      return { db, close: () => db.end() };
    },
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

interface Kill { after: string; detail: string }

async function runOn(which: 'pglite' | 'postgres', options: CampaignOptions): Promise<{ figures: Figure[]; notes: string[] }> {
  const scope = which;
  const dir = await mkdtemp(path.join(os.tmpdir(), `crash-effects-${which}-`));
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const database = which === 'pglite' ? await embedded(dataDir) : await freshPostgres(dataDir, port);
  const receiver = await startReceiver(path.join(dir, 'webhook-arrivals.jsonl'));
  const endpoints = ['/hook/a', '/hook/b'];
  const killLog = path.join(dir, 'kills.jsonl');
  const random = seeded(options.seed + (which === 'pglite' ? 0 : 7));
  const loadMs = (options.quick ? 45 : 240) * 1000;
  // every kind of effect killed once (quick) or five times (full)
  const killBudget = (options.quick ? 1 : 5) * EFFECTS.length;
  const clients = options.quick ? 6 : 10;
  const notes: string[] = [`${scope}: service logs, kill log, acknowledged sends and webhook arrivals under ${dir}`];
  const baseEnv: NodeJS.ProcessEnv = {
    ...database.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT: 'off',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000', PEPPOL_SANDBOX_DELIVERY_DELAY_MS: '200', FS_SANDBOX_DELAY_MS: '200',
    DELIVERY_RETRY_BASE_MS: '500', FAULT_KILL_LOG: killLog, FAULT_KILL_AFTER_EFFECT: undefined, FAULT_SEED: undefined,
  };

  const acks: Ack[] = [];
  const racedBefore = raced.creditNotes412;
  const healthMs: number[] = [];
  let kills = 0;
  let lives = 0;
  let service: ServiceProcess | undefined;
  const start = async (armed: boolean) => {
    // each armed life dies after the n-th side effect of one kind, the kinds in turn: every kind is hit
    const effect = EFFECTS[lives % EFFECTS.length];
    const nth = 1 + Math.floor(random() * 6);
    const fault = armed ? { FAULT_KILL_AFTER_EFFECT: `${effect}:#${nth}`, FAULT_SEED: String(options.seed + lives) } : {};
    lives++;
    service = spawnService({ ...baseEnv, ...fault }, path.join(dir, 'service.log'));
    try {
      healthMs.push(await healthy(service, port));
    } catch (error) {
      // a backlog's side effect may come before the first health answer: that is a kill like any other
      if ((await service.exited).signal !== 'SIGKILL') throw error;
      kills++;
      return null;
    }
    return service;
  };

  let loadError: unknown = null;
  let work: Promise<{ unfinished: number }> | undefined;
  let finished: { unfinished: number } | undefined;
  try {
    for (;;) {
      const life = await start(kills < killBudget);
      if (!life) continue;
      if (!work) {
        const credentialsFile = path.join(dataDir, 'demo-credentials.json');
        if (!existsSync(credentialsFile)) throw new Error(`no demo credentials at ${credentialsFile}`);
        const demo = JSON.parse(readFileSync(credentialsFile, 'utf8')) as DemoCredentials;
        const root = `http://127.0.0.1:${port}`;
        work = (async () => {
          const setup = await setUp(root, demo, endpoints.map((e) => `${receiver.url}${e}`));
          // the load runs its time, and on until the kills are done (within six times its time)
          const began = Date.now();
          const going = () => Date.now() - began < loadMs || (kills < killBudget && Date.now() - began < 6 * loadMs);
          await Promise.all(Array.from({ length: clients }, (_, i) => client(setup, i, options.seed, going, path.join(dir, 'acks.jsonl'), acks)));
          return drained(setup, acks, 600_000);
        })();
        work.catch((error: unknown) => { loadError = error; });
      }
      const ended = await Promise.race([life.exited.then((exit) => ({ exit })), work.then((w) => ({ w }), () => ({ w: undefined }))]);
      if ('exit' in ended) {
        if (ended.exit.signal !== 'SIGKILL') throw new Error(`the service exited by itself (${ended.exit.code ?? ended.exit.signal}); see ${dir}/service.log`);
        kills++;
        continue;
      }
      finished = ended.w;
      break;
    }
    // the work the API cannot show (webhook deliveries, the receiver's FS filings): read it with the service stopped, restart until none is left
    let rounds = 0;
    for (;;) {
      await stopService(service!);
      const { db, close } = await database.open();
      const left = await outstanding(db).finally(close);
      if ((left.webhooks === 0 && left.filings === 0 && left.sends === 0) || rounds++ >= 8) break;
      notes.push(`${scope}: after the drain, still owed: ${JSON.stringify(left)}; started again to finish`);
      if (!(await start(false))) throw new Error('an unarmed service was killed');
      await new Promise((r) => setTimeout(r, 25_000)); // a killed attempt's lease (timeout + 20 s) runs out, then it is made again
    }
    const killed: Kill[] = existsSync(killLog) ? readFileSync(killLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Kill) : [];
    const byEffect = EFFECTS.map((e) => `${e} ${killed.filter((k) => k.after === e).length}`).join(', ');
    const { db, close } = await database.open();
    try {
      const checked = await figures(db, scope, acks, receiver.arrivals, endpoints, raced.creditNotes412 - racedBefore);
      const head: Figure[] = [
        { scope, name: 'kills done (SIGKILL after a side effect)', value: kills, target: `≥ ${killBudget}`, ok: kills >= killBudget },
        { scope, name: 'kills by effect', value: byEffect },
        { scope, name: 'effect kinds killed at least once', value: EFFECTS.filter((e) => killed.some((k) => k.after === e)).length, target: String(EFFECTS.length), ok: EFFECTS.every((e) => killed.some((k) => k.after === e)) },
        { scope, name: 'load errors', value: loadError ? 1 : 0, target: '0', ok: !loadError },
        { scope, name: 'acknowledged sends unfinished after the drain', value: finished?.unfinished ?? -1, target: '0', ok: finished?.unfinished === 0 },
        { scope, name: 'restart to health, max (s)', value: Number((Math.max(...healthMs.slice(1), 0) / 1000).toFixed(1)) },
      ];
      if (loadError) notes.push(`${scope}: load error: ${loadError instanceof Error ? loadError.message : String(loadError)}`);
      return { figures: [...head, ...checked.figures], notes: [...notes, ...checked.notes] };
    } finally {
      await close();
    }
  } finally {
    if (service) await stopService(service).catch(() => undefined);
    await receiver.close();
    await database.drop().catch(() => undefined);
  }
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const startedAt = new Date();
  build();
  const all: Figure[] = [];
  const notes: string[] = [];
  for (const which of options.databases) {
    const result = await runOn(which, options);
    all.push(...result.figures);
    notes.push(...result.notes);
  }
  return { name: 'crash-effects', seed: options.seed, startedAt: startedAt.toISOString(), seconds: Math.round((Date.now() - startedAt.getTime()) / 1000), figures: all, notes };
}
