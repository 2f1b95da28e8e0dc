import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface PgbenchFigure {
  tps: number;
  latencyMs: number;
}

/**
 * pgbench on the server of `admin`, in a scratch database of its own: `clients` connections, each
 * transaction one INSERT of one event-shaped row (a stream id, a revision, a type, a JSON payload,
 * the unique (stream, revision) index an append checks) and its commit. It is what this machine's
 * Postgres does when nothing but the commits is asked of it; null when pgbench is not installed.
 */
export async function pgbenchEventInserts(admin: string, clients: number, seconds: number): Promise<PgbenchFigure | null> {
  const url = new URL(admin);
  const name = `svc_bench_pgb_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const dir = await mkdtemp(join(tmpdir(), 'pgbench-'));
  try {
    await client.query(`CREATE DATABASE ${name}`);
    const target = new URL(admin);
    target.pathname = `/${name}`;
    const scratch = new pg.Client({ connectionString: target.toString() });
    await scratch.connect();
    await scratch.query(`CREATE TABLE events (global_position bigserial PRIMARY KEY, stream_id text NOT NULL, stream_revision int NOT NULL,
      type text NOT NULL, data jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(), UNIQUE (stream_id, stream_revision))`);
    await scratch.end();
    const script = join(dir, 'insert-one-event.sql');
    await writeFile(script, "INSERT INTO events (stream_id, stream_revision, type, data) VALUES (md5(random()::text), 0, 'InvoiceCreated', '{\"invoice_id\":\"x\",\"lines\":[1,2,3]}');\n");
    const env = { ...process.env, PGPASSWORD: decodeURIComponent(url.password) };
    const args = ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', script, '-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username) || 'postgres', name];
    const { stdout } = await run('pgbench', args, { env });
    const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
    const latency = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench gave no tps: ${stdout}`);
    return { tps: Number(tps), latencyMs: Number(latency ?? NaN) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await client.end();
    await rm(dir, { recursive: true, force: true });
  }
}
