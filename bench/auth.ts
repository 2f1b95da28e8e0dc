import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { addUser, createOrganisation, createWorkspace, issueApiKey, systemMetadata } from '../src/modules/tenancy/tenancy.ts';
import { ephemeralSigningKeyPem } from '../src/modules/identity/ephemeral-key.ts';
import { loadConfig, type Config } from '../src/platform/config.ts';
import type { Position } from '../src/platform/eventstore/port.ts';
import { createApp } from '../src/doors/native/app.ts';
import { openService, type Service } from '../src/service.ts';
import { onEmbedded, onFreshPostgres } from './databases.ts';
import { percentile } from './stats.ts';

const CLIENTS = 16;
const PASSWORD = 'Bench-pass1!';
/**
 * Team Enterprise (500 rpm, burst 1000) is the largest finite plan. Its organisations each have
 * one key and one admin, and the clients spread their requests over them, so the limiter takes
 * real tokens from real buckets without emptying one: an unlimited plan (Team Custom) never
 * touches the bucket store at all.
 */
const FINITE_PLAN = 'Team Enterprise';
const FINITE_ORGANISATIONS = 48;
const metadata = systemMetadata('bench-auth');

interface Identity {
  apiKey: string;
  email: string;
  /** the user's access token, from POST /auth/login */
  token: string;
}

interface Row {
  label: string;
  path: string;
  /** the headers of the n-th request (identities are taken round robin) */
  headers(n: number): Record<string, string>;
  /** no warm-up: the first requests are what this row is about (a per-IP bucket) */
  cold?: boolean;
}

async function listen(app: { callback(): Parameters<typeof createServer>[1] }): Promise<{ server: Server; base: string }> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** `count` organisations on `plan`, each with a workspace, an admin user and an API key, visible in the read models. */
async function organisations(services: Service, plan: string, count: number): Promise<Omit<Identity, 'token'>[]> {
  const made: Omit<Identity, 'token'>[] = [];
  const positions: (Position | null)[] = [];
  for (let i = 0; i < count; i++) {
    const { organisation_id } = await createOrganisation(services, `Bench ${plan} ${i + 1}`, plan, metadata);
    await createWorkspace(services, organisation_id, 'Bench', metadata);
    const email = `bench+${organisation_id.slice(0, 8)}@bench.example.sk`;
    await addUser(services, { organisationId: organisation_id, email, name: 'Bench Admin', role: 'admin', password: PASSWORD }, metadata);
    const key = await issueApiKey(services, { organisationId: organisation_id, name: 'bench', issuedBy: 'bench-auth' }, metadata);
    positions.push(key.position);
    made.push({ apiKey: key.api_key, email });
  }
  await services.projections.shown(positions, 60_000);
  return made;
}

/** Signs each user in through POST /auth/login (on the app without the limiter: sign-in shares the per-IP bucket). */
async function signIn(base: string, users: Omit<Identity, 'token'>[]): Promise<Identity[]> {
  return Promise.all(users.map(async (user) => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (response.status !== 200 || !body.access_token) throw new Error(`login answered ${response.status}: ${JSON.stringify(body)}`);
    return { ...user, token: body.access_token };
  }));
}

interface Tally {
  latencies: number[];
  statuses: Map<number, number>;
  seconds: number;
}

/** `clients` loops, each sending its next request when the previous one is answered, until `until` (performance.now()). */
async function run(base: string, row: Row, next: () => number, until: number, clients: number, tally?: Tally): Promise<void> {
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const sentAt = performance.now();
      const response = await fetch(`${base}${row.path}`, { headers: row.headers(next()) });
      await response.arrayBuffer();
      tally?.latencies.push(performance.now() - sentAt);
      tally?.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    }
  }));
  if (tally) tally.seconds += (performance.now() - started) / 1000;
}

function report(mode: string, tally: Tally): string {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const answers = [...tally.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`).join(', ');
  return `      ${mode.padEnd(12)} ${String(Math.round(sorted.length / tally.seconds)).padStart(6)} req/s   ` +
    `p50 ${percentile(sorted, 50).toFixed(1).padStart(5)} ms   p99 ${percentile(sorted, 99).toFixed(1).padStart(6)} ms   (${answers})`;
}

/**
 * One row, `durationMs` through the app without the limiter and `durationMs` through the one with
 * it, in alternating slices: whatever else the machine does then weighs on both alike.
 */
async function compare(apps: { off: string; on: string }, row: Row, durationMs: number, clients: number): Promise<void> {
  let n = 0;
  const next = () => n++;
  if (!row.cold) {
    for (const base of [apps.off, apps.on]) await run(base, row, next, performance.now() + Math.min(1000, durationMs / 5), clients);
  }
  const slices = Math.max(1, Math.min(5, Math.floor(durationMs / 1000)));
  const off: Tally = { latencies: [], statuses: new Map(), seconds: 0 };
  const on: Tally = { latencies: [], statuses: new Map(), seconds: 0 };
  for (let i = 0; i < slices; i++) {
    await run(apps.off, row, next, performance.now() + durationMs / slices, clients, off);
    await run(apps.on, row, next, performance.now() + durationMs / slices, clients, on);
  }
  console.log(`    ${row.label}`);
  console.log(report('limiter off', off));
  console.log(report('limiter on', on));
}

/** The limiter's own step: `take` on the bucket store, with limits no bucket reaches, 16 at once. */
async function storeAlone(services: Service, durationMs: number, clients: number): Promise<void> {
  const latencies: number[] = [];
  const prefix = `bench:${randomUUID()}:`;
  const started = performance.now();
  const until = started + Math.min(durationMs, 3000);
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; performance.now() < until; i++) {
      const at = performance.now();
      await services.limits.store.take(`${prefix}${c}:${i % 64}`, 1_000_000, 1_000_000);
      latencies.push(performance.now() - at);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(`    bucket store alone: take() ${Math.round(latencies.length / seconds)}/s   p50 ${(percentile(latencies, 50) * 1000).toFixed(0)} µs   ` +
    `p99 ${(percentile(latencies, 99) * 1000).toFixed(0)} µs   (${clients} at once, no HTTP)`);
}

/**
 * One database and one bucket store: the same routes through an app without the rate limiter and
 * through one with it, over the same services (the same pools, caches and bucket store).
 */
async function benchOne(label: string, databaseUrl: string, redisUrl: string | undefined, durationMs: number): Promise<void> {
  // defaults, not this shell's settings, but for where the official validation artifacts are
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  const identity = { ...defaults.identity, rateLimit: true, jwtPrivateKeyPem: await ephemeralSigningKeyPem() };
  const config: Config = { ...defaults, databaseUrl, redisUrl, identity };
  const services = await openService(config, { log: pino({ level: 'silent' }), runReactors: false });
  const on = await listen(createApp(services));
  const off = await listen(createApp({ ...services, config: { ...config, identity: { ...identity, rateLimit: false } } }));
  try {
    const [custom] = await signIn(off.base, await organisations(services, 'Team Custom', 1));
    const finite = await signIn(off.base, await organisations(services, FINITE_PLAN, FINITE_ORGANISATIONS));
    if (!custom) throw new Error('no Team Custom identity');
    const pick = (n: number) => finite[n % finite.length] as Identity;

    const key: Row = { label: '(a) API key (X-Api-Key)      GET /api/v1/api-keys      Team Custom (unlimited)', path: '/api/v1/api-keys', headers: () => ({ 'x-api-key': custom.apiKey }) };
    const jwt: Row = { label: '(b) user access token       GET /api/v1/api-keys      Team Custom (unlimited)', path: '/api/v1/api-keys', headers: () => ({ authorization: `Bearer ${custom.token}` }) };
    const health: Row = { label: '(c) no credential           GET /api/v1/health        exempt', path: '/api/v1/health', headers: () => ({}) };
    const jwks: Row = { label: '(d) no credential           GET /.well-known/jwks.json  per IP: fallback 30 rpm, burst 50', path: '/.well-known/jwks.json', headers: () => ({}), cold: true };
    const keySpread: Row = {
      label: `(a) API key (X-Api-Key)      GET /api/v1/api-keys      ${FINITE_PLAN}, ${FINITE_ORGANISATIONS} keys round robin`, path: '/api/v1/api-keys',
      headers: (n) => ({ 'x-api-key': pick(n).apiKey }),
    };
    const jwtSpread: Row = {
      label: `(b) user access token       GET /api/v1/api-keys      ${FINITE_PLAN}, ${FINITE_ORGANISATIONS} organisations round robin`, path: '/api/v1/api-keys',
      headers: (n) => ({ authorization: `Bearer ${pick(n).token}` }),
    };

    console.log(`\n${label}: ${CLIENTS} clients, ${durationMs / 1000} s per row and mode`);
    for (const row of [key, jwt, health, keySpread, jwtSpread, jwks]) await compare({ off: off.base, on: on.base }, row, durationMs, CLIENTS);
    await storeAlone(services, durationMs, CLIENTS);
  } finally {
    for (const { server } of [on, off]) {
      server.closeAllConnections();
      server.close();
    }
    await services.close();
  }
}

/**
 * `npm run bench -- auth [seconds]`: requests per second and p50/p99 latency over real HTTP with 16
 * concurrent clients for each way in (an API key, a user's access token from POST /auth/login, no
 * credential), with the rate limiter on and off: on the embedded PGlite, on Postgres
 * (DATABASE_URL or the local server, a fresh database) with buckets in memory, and on Postgres
 * with buckets in Redis (REDIS_URL or redis://127.0.0.1:6379).
 */
export async function main(args: string[]): Promise<void> {
  const durationMs = Number(args[0] ?? 10) * 1000;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await onEmbedded((url) => benchOne('PGlite (embedded, in memory), buckets in memory', url, undefined, durationMs));
  await onFreshPostgres(async (url, host) => {
    await benchOne(`Postgres (${host}, fresh database), buckets in memory`, url, undefined, durationMs);
    await benchOne(`Postgres (${host}, same database), buckets in Redis (${new URL(redisUrl).host})`, url, redisUrl, durationMs);
  });
}
