// The service under a campaign: its own process (test/e2e/support/service-process.ts) on the
// embedded PGlite or on a fresh Postgres database, with the demo organisations made on first start.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { DemoCredentials } from '../../src/demo/bootstrap.ts';
import { ephemeralSigningKeyPem } from '../../src/modules/identity/ephemeral-key.ts';
import { freePort, healthy, startService, stopService } from '../../test/e2e/support/service-process.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const POSTGRES_ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type Database = 'pglite' | 'postgres';

/**
 * One service deployment of a campaign: a data directory, a port, the environment every start
 * gets, and (on Postgres) its own database. `start()` spawns it, `kill()` sends SIGKILL to its
 * process group (npm/tsx and node alike), `stop()` SIGTERM. Its stdout and stderr lines are kept
 * (`output`) for the campaigns that count log lines.
 */
const REPORTS = fileURLToPath(new URL('../../reports/', import.meta.url));

export class CampaignService {
  child: ChildProcess | undefined;
  /** the service's log lines, all starts together */
  readonly output: string[] = [];
  credentials!: DemoCredentials;

  private constructor(
    readonly database: Database,
    readonly dataDir: string,
    readonly port: number,
    readonly env: Record<string, string>,
    /** Postgres: the database's URL */
    readonly databaseUrl: string | undefined,
  ) {}

  /** every start's stdout and stderr, kept under reports/ (not committed) to read a death's stack */
  get logFile(): string {
    return path.join(REPORTS, `service-${this.database}-${this.port}.log`);
  }

  /** http://127.0.0.1:PORT */
  get root(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * A fresh deployment, started once and healthy, with the demo made (the embedded default makes it
   * on first start; on Postgres `npm run cli -- demo` does) and its credentials read.
   */
  static async create(database: Database, env: Record<string, string> = {}): Promise<CampaignService> {
    const dataDir = await mkdtemp(path.join(tmpdir(), `campaign-${database}-`));
    const port = await freePort();
    const full: Record<string, string> = { LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env };
    let databaseUrl: string | undefined;
    if (database === 'postgres') {
      const name = `svc_campaign_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(POSTGRES_ADMIN_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      Object.assign(full, { DATABASE_URL: databaseUrl, JWT_PRIVATE_KEY: await ephemeralSigningKeyPem(), WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), TOTP_SECRET_KEY: randomBytes(32).toString('base64') });
    }
    const service = new CampaignService(database, dataDir, port, full, databaseUrl);
    if (database === 'postgres') await service.cli(['demo']);
    await service.start();
    service.credentials = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
    return service;
  }

  /** Starts the service and resolves with the ms until it answered health (throws after `withinMs`). */
  async start(withinMs = 300_000): Promise<number> {
    const started = Date.now();
    const child = startService('tsx', this.dataDir, this.port, this.env);
    this.child = child;
    mkdirSync(REPORTS, { recursive: true });
    const file = createWriteStream(this.logFile, { flags: 'a' });
    const keep = (chunk: Buffer) => {
      file.write(chunk);
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.output.push(line);
    };
    child.once('exit', () => file.end());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await healthy(child, this.port, withinMs);
    return Date.now() - started;
  }

  /** SIGKILL to the whole process group; resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGKILL');
    await exited;
  }

  /** SIGTERM (a clean stop); the process group is killed if it has not exited within `withinMs`. */
  async stop(withinMs = 60_000): Promise<void> {
    const child = this.child;
    if (!child) return;
    const timer = setTimeout(() => void this.kill(), withinMs);
    try {
      await stopService(child);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `npm run cli -- ARGS` against this deployment (the service must be stopped on PGlite); resolves with its output. */
  cli(args: string[]): Promise<string> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: this.dataDir, PORT: String(this.port), HOST: '127.0.0.1', ...this.env };
    if (!this.databaseUrl) delete env.DATABASE_URL;
    delete env.EVENTSTORE_URL;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`))));
    });
  }

  /** Stops it, drops its database (Postgres) and removes its data directory. */
  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    if (this.databaseUrl) {
      const name = new URL(this.databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
