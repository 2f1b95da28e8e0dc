import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';

/** Runs `bench` on an in-memory PGlite, closed afterwards. */
export async function onEmbedded(bench: (connectionString: string) => Promise<void>): Promise<void> {
  const embedded = await startEmbeddedPostgres();
  try {
    await bench(embedded.connectionString);
  } finally {
    await embedded.close();
  }
}

/**
 * Runs `bench` on a database made for it on the Postgres server of DATABASE_URL (or the local
 * one), dropped afterwards; `host` names the server for the printed labels.
 */
export async function onFreshPostgres(bench: (connectionString: string, host: string) => Promise<void>): Promise<void> {
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `svc_bench_${randomUUID().slice(0, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    await bench(url.toString(), url.host);
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
}
