import { randomUUID } from 'node:crypto';
import { healthRoute } from '../../../src/platform/http/health.ts';
import type { Route } from '../../../src/platform/http/index.ts';
import { bySpecificity } from '../../../src/platform/http/paths.ts';
import type { TestService } from '../../../test/support/service.ts';
import { parkedEvents, type ParkedEvent } from '../../../src/platform/readmodel/failures.ts';
import { lagZero } from '../lag.ts';
import { signIn, type World } from '../world.ts';
import { casesFor, uncovered, type FuzzCase } from './cases.ts';
import { DocumentedResponses } from './documented.ts';
import { isObject, judge, parseJson, type Answer, type Verdict } from './oracle.ts';
import { Random } from './random.ts';
import { reproduction } from './report.ts';
import type { Known } from './values.ts';

export type Door = 'native' | 'sapi';

/** Why a case failed, by the figure it counts in. */
export type Bucket = '5xx' | 'schema' | 'pollution' | 'other';

export interface Finding {
  bucket: Bucket;
  verdict: Verdict;
  kind: string;
  /** one line to send the request again (bodies shortened) */
  reproduction: string;
  status: number;
}

/** What one route's cases got. */
export interface RouteTally {
  label: string;
  door: Door;
  requests: number;
  statuses: Map<string, number>;
  /** refusals by code (and, under /sapi, the first detail's field): how far into the route the cases got */
  refusals: Map<string, number>;
  counts: Record<Bucket, number>;
  /** the first findings of each problem (a few, for the report) */
  examples: Finding[];
  seconds: number;
}

export interface FuzzRun {
  seed: number;
  perRoute: number;
  /** routes the app registers (both doors, health included) */
  registered: number;
  routes: RouteTally[];
  /** routes the fuzzer has no generator or id for: each fails the run */
  uncovered: string[];
  /**
   * After the last route: whether the projectors and reactors caught up with everything the run
   * got accepted, and the events they parked, which must be none (an accepted input a follower
   * cannot apply is a finding, even though it no longer stops the others).
   */
  followers: { caughtUp: boolean; parked: ParkedEvent[] };
  seconds: number;
}

export interface FuzzOptions {
  seed: number;
  perRoute: number;
  /** requests in flight at once (default 4) */
  concurrency?: number;
  /** only the routes whose label ("POST /api/v1/payments") contains this (a reproduction); the figures then say so */
  only?: string;
  /**
   * Of the routes (after `only`), those whose place in the router's order is `index` modulo
   * `count` (index from 1): N shards of one seed, run side by side, fuzz every route with the same
   * cases as one run, since each route's cases come from its own seeded generator.
   */
  shard?: { index: number; count: number };
  /** called after each route (progress for a long run) */
  onRoute?: (tally: RouteTally, index: number, total: number) => void;
}

const REQUEST_TIMEOUT_MS = 120_000;
/** a user's access token lives 900 s: a long run signs in again well before */
const TOKEN_AGE_MS = 8 * 60_000;
const BATCH = 100;
const EXAMPLES_PER_PROBLEM = 2;
/** how long the followers get, after the last route, to take what was accepted (Peppol and FS legs included) */
const FOLLOWERS_DRAIN_MS = 300_000;

/** The routes the app serves, per door, as the router holds them: a route added later is fuzzed without being listed. */
export function registeredRoutes(svc: TestService): { route: Route; door: Door; label: string }[] {
  const health = healthRoute(async () => ({}));
  return [
    ...[...svc.services.routes, health].map((route) => ({ route, door: 'native' as const, label: `${route.method} /api/v1${route.path}` })),
    ...[...(svc.services.sapi.routes as unknown as Route[]), health].map((route) => ({ route, door: 'sapi' as const, label: `${route.method} /sapi${route.path}` })),
  ];
}

/** What the fuzzer knows of the world: the seeded ids by parameter, and strings that mean something to the service. */
export function knownOf(svc: TestService, world: World, foreign: { companyId: string }): Known {
  const ids = new Map<string, string[]>(Object.entries(world.ids).map(([k, v]) => [k, [...v]]));
  // a foreign company among the ids: cross-organisation probes ride along
  ids.get('company_id')?.push(foreign.companyId);
  const [a, b] = [svc.demo.companies[0]!, svc.demo.companies[1]!];
  const strings = [
    a.name, a.vat_id, a.ico, a.dic, a.peppol_id, a.iban, b.vat_id, b.peppol_id, a.sapi.client_id, svc.demo.admin.email,
    ...world.secrets.filter((s) => /^SK\d{10}$/.test(s)), 'client_credentials', 'invoices:read', 'document:send', 'document:receive', 'XML', 'UTF-8', 'RECEIVED', 'ACKNOWLEDGED',
  ];
  const bodies = new Map(Object.entries(world.validBodies ?? {}));
  return { ids, strings: strings.filter((s): s is string => typeof s === 'string' && s !== ''), bodies };
}

/** Own properties of the built-in prototypes: pollution shows as one more. */
function prototypeKeys(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].flatMap((p, i) => Object.getOwnPropertyNames(p).map((k) => `${i}:${k}`));
}

function cleanPrototypes(added: string[]): void {
  const protos = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
  for (const entry of added) {
    const [i, key] = [Number(entry.slice(0, entry.indexOf(':'))), entry.slice(entry.indexOf(':') + 1)];
    delete (protos[i] as unknown as Record<string, unknown>)[key];
  }
}

async function mapPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  }));
}

/**
 * Fuzzes every route of both doors of a running service (in this process, over a real socket):
 * `perRoute` seeded cases each, every answer judged against the error shapes, the OpenAPI
 * document the service serves (status and schema), and the built-in prototypes (pollution is
 * visible because the service runs in this process).
 */
export async function fuzzRoutes(svc: TestService, world: World, foreign: { companyId: string }, options: FuzzOptions): Promise<FuzzRun> {
  const started = Date.now();
  const known = knownOf(svc, world, foreign);
  const docs = {
    native: await DocumentedResponses.load(`${svc.root}/openapi.json`, 'native'),
    sapi: await DocumentedResponses.load(`${svc.root}/sapi/openapi.json`, 'sapi'),
  };
  const shard = options.shard;
  const all = registeredRoutes(svc);
  const routes = all
    .filter((r) => !options.only || r.label.includes(options.only))
    .filter((_, i) => !shard || i % shard.count === shard.index - 1);
  // a reproduction that names no route would fuzz nothing and report every figure ok
  if (options.only && routes.length === 0) throw new Error(`--only "${options.only}": no route's label ("POST /api/v1/…") contains it`);
  const missing = routes.flatMap(({ route, door, label }) => [
    ...uncovered(route, known).map((m) => `${label}: ${m}`),
    ...(docs[door].operation(route) ? [] : [`${label}: not in the OpenAPI document`]),
  ]);
  const session = { access: world.jwt, at: Date.now() };
  const sapiSession = { token: world.sapi.token };
  const baseline = new Set(prototypeKeys());
  const concurrency = options.concurrency ?? 4;

  const sendCase = async (door: Door, c: FuzzCase): Promise<Answer> => {
    const headers: Record<string, string> = { ...c.headers };
    if (door === 'native') {
      if (c.credential === 'api_key') headers['x-api-key'] ??= world.apiKey;
      if (c.credential === 'user') headers.authorization ??= `Bearer ${session.access}`;
    } else {
      // the route's own credential is a SAPI token; 'user' sends the native key, which /sapi refuses
      if (c.credential === 'api_key') {
        headers.authorization ??= `Bearer ${sapiSession.token}`;
        headers['x-peppol-participant-id'] ??= world.sapi.participantId;
      }
      if (c.credential === 'user') headers['x-api-key'] ??= world.apiKey;
      if (c.method === 'POST' && !('idempotency-key' in headers) && c.path.startsWith('/document/send')) headers['idempotency-key'] = randomUUID();
    }
    const url = door === 'native' ? `${svc.api}${c.path}` : `${svc.root}/sapi${c.path}`;
    try {
      const res = await fetch(url, { method: c.method, headers, body: c.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text(), location: res.headers.get('location') ?? undefined };
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return { status: 0, contentType: '', text: '', error: `${error instanceof Error ? error.message : String(error)}${cause}` };
    }
  };

  const tallies: RouteTally[] = [];
  for (const [index, { route, door, label }] of routes.entries()) {
    if (Date.now() - session.at > TOKEN_AGE_MS) Object.assign(session, { access: (await signIn(svc, world.user)).access, at: Date.now() });
    // the native routes before may have disabled the world's SAPI client, and its token outlived
    if (door === 'sapi') sapiSession.token = await readySapiClient(svc, world);
    // likewise a fuzzed DELETE deactivates the seeded webhook endpoints: test and rotate would only meet 409
    if (route.path.includes('{webhook_id}')) await readyWebhooks(svc, world, known);
    const tally: RouteTally = { label, door, requests: 0, statuses: new Map(), refusals: new Map(), counts: { '5xx': 0, schema: 0, pollution: 0, other: 0 }, examples: [], seconds: 0 };
    const t0 = Date.now();
    const rnd = Random.forLabel(options.seed, label);
    const record = (bucket: Bucket, verdict: Verdict, c: FuzzCase, status: number) => {
      tally.counts[bucket] += 1;
      if (tally.examples.filter((e) => e.verdict.problem === verdict.problem).length < EXAMPLES_PER_PROBLEM) {
        tally.examples.push({ bucket, verdict, kind: c.kind, reproduction: reproduction(c), status });
      }
    };
    for (let done = 0; done < options.perRoute; done += BATCH) {
      const cases = casesFor(route, rnd, known, Math.min(BATCH, options.perRoute - done));
      await mapPool(cases, concurrency, async (c) => {
        const answer = await sendCase(door, c);
        tally.requests += 1;
        const status = answer.error !== undefined ? 'none' : String(answer.status);
        tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
        const refusal = refusalOf(door, answer);
        if (refusal !== undefined) tally.refusals.set(refusal, (tally.refusals.get(refusal) ?? 0) + 1);
        if (answer.error !== undefined || answer.status >= 500) {
          record('5xx', { problem: answer.error !== undefined ? 'no answer' : String(answer.status), detail: (answer.error ?? answer.text).slice(0, 300) }, c, answer.status);
        } else {
          // a fuzzed path id ('', '..%2F', 5000 characters) may make the URL another route's or none: 404 and 405 are then the router's answers
          const elsewhere = route.path.includes('{') && (answer.status === 404 || answer.status === 405);
          // an empty id ('/document/receive/') names the route above it, which the router serves: judged by its documentation
          const served = route.path.includes('{') ? routeServing(all, door, c) ?? route : route;
          const documented = elsewhere ? undefined : docs[door].check(served, answer.status, answer.contentType, answer.text);
          const verdict = judge(served, c, answer, door);
          if (documented) record('schema', documented, c, answer.status);
          else if (verdict && !verdict.problem.startsWith('unexpected')) record(['error shape', 'error body not JSON'].includes(verdict.problem) ? 'schema' : 'other', verdict, c, answer.status);
        }
        const now = prototypeKeys();
        const added = now.filter((k) => !baseline.has(k));
        if (added.length > 0) {
          record('pollution', { problem: 'prototype polluted', detail: added.join(', ') }, c, answer.status);
          cleanPrototypes(added);
        }
      });
    }
    if (neverPastAuthentication(tally)) {
      record('other', { problem: 'never past authentication', detail: 'every answer was 401 although most cases carry valid credentials: the run tested the gate, not the route' }, { kind: 'the whole route', method: route.method, path: route.path, headers: {}, credential: 'api_key', bodyPreview: '', badText: false, protoKeys: false }, 401);
    }
    tally.seconds = (Date.now() - t0) / 1000;
    tallies.push(tally);
    options.onRoute?.(tally, index, routes.length);
  }
  const caughtUp = (await lagZero(svc.root, FOLLOWERS_DRAIN_MS)) !== null;
  const parked = [...(await parkedEvents(svc.services.readModels, 'projection_failures')), ...(await parkedEvents(svc.services.readModels, 'reactor_failures'))];
  return { seed: options.seed, perRoute: options.perRoute, registered: routes.length, routes: tallies, uncovered: missing, followers: { caughtUp, parked }, seconds: (Date.now() - started) / 1000 };
}

/**
 * A 4xx answer's code: the SAPI envelope's with its first detail's field (`SAPI-VAL-001 payload`,
 * `SAPI-VAL-001 BR-CO-15`: the parser or validation), the native `detail.error`. Undefined otherwise.
 */
export function refusalOf(door: Door, answer: Answer): string | undefined {
  if (answer.status < 400 || answer.status >= 500 || !answer.contentType.includes('json')) return undefined;
  const body = parseJson(answer.text);
  if (body === undefined) return undefined;
  const at = (v: unknown, key: string): unknown => (isObject(v) ? v[key] : undefined);
  if (door === 'sapi') {
    const error = at(body, 'error');
    const details = at(error, 'details');
    const field = Array.isArray(details) ? at(details[0], 'field') : undefined;
    return `${String(at(error, 'code'))}${typeof field === 'string' ? ` ${field}` : ''}`;
  }
  const detail = at(body, 'detail');
  return typeof at(detail, 'error') === 'string' ? String(at(detail, 'error')) : Array.isArray(detail) ? 'request validation' : `${answer.status}`;
}

/**
 * A route whose every answer was 401 never had its input looked at: its credentials had run out
 * (the full run of 10,000 per route outlasts a 900 s token) or were disabled by a route before.
 * Too few requests prove nothing either way.
 */
function neverPastAuthentication(tally: RouteTally): boolean {
  return tally.requests >= 50 && tally.statuses.size === 1 && tally.statuses.has('401');
}

/** The world's SAPI client enabled again (a fuzzed native route may have disabled it) and a fresh token of it. */
async function readySapiClient(svc: TestService, world: World): Promise<string> {
  const res = await fetch(`${svc.api}/sapi-clients/${world.sapi.clientId}/enable`, { method: 'POST', headers: { 'x-api-key': world.apiKey } });
  if (res.status !== 200) throw new Error(`enabling the fuzzed SAPI client: ${res.status} ${await res.text()}`);
  return world.sapi.renew();
}

/**
 * The seeded webhook endpoints active again: each one a fuzzed DELETE deactivated is replaced, in
 * its scope and with its URL and events, by a new one at the same place among the known ids (the
 * first is what a plain case names).
 */
async function readyWebhooks(svc: TestService, world: World, known: Known): Promise<void> {
  const headers = { 'x-api-key': world.apiKey, 'content-type': 'application/json' };
  const list = await fetch(`${svc.api}/connect/webhooks?page_size=100`, { headers });
  if (list.status !== 200) throw new Error(`listing the fuzzed webhooks: ${list.status} ${await list.text()}`);
  const endpoints = ((await list.json()) as { items: { id: string; url: string; events: string; is_active: boolean; workspace_id: string | null }[] }).items;
  const ids = known.ids.get('webhook_id') ?? [];
  for (const [i, id] of ids.entries()) {
    const endpoint = endpoints.find((e) => e.id === id);
    if (!endpoint || endpoint.is_active) continue;
    const path = endpoint.workspace_id ? `/workspaces/${endpoint.workspace_id}/webhooks` : '/connect/webhooks';
    const created = await fetch(`${svc.api}${path}`, { method: 'POST', headers, body: JSON.stringify({ url: endpoint.url, events: endpoint.events }) });
    if (created.status !== 201) throw new Error(`replacing the fuzzed webhook ${id}: ${created.status} ${await created.text()}`);
    ids[i] = ((await created.json()) as { id: string }).id;
  }
}

/**
 * The route the router serves a case's URL with: of the door's routes for its method whose pattern
 * matches the path (query and a trailing slash aside, as the router is not strict), the one the
 * router registered first, by the same `bySpecificity` order ('/x/export' before '/x/{id}').
 */
export function routeServing(all: readonly { route: Route; door: Door }[], door: Door, c: FuzzCase): Route | undefined {
  const path = (c.path.split('?')[0] ?? '').replace(/(.)\/$/, '$1');
  const matching = all.filter((r) => r.door === door && r.route.method === c.method && patternOf(r.route.path).test(path)).map((r) => r.route);
  return matching.sort(bySpecificity)[0];
}

const patterns = new Map<string, RegExp>();

function patternOf(routePath: string): RegExp {
  let pattern = patterns.get(routePath);
  if (!pattern) {
    const literal = routePath.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(`^${literal.join('[^/]+')}$`);
    patterns.set(routePath, pattern);
  }
  return pattern;
}

/** One line per route: its statuses, its findings by figure, its time. */
export function routeLine(t: RouteTally): string {
  const statuses = [...t.statuses.entries()].sort().map(([k, n]) => `${k}×${n}`).join(' ');
  const counts = Object.entries(t.counts).filter(([, n]) => n > 0).map(([k, n]) => `${k}: ${n}`).join(', ');
  return `${t.label}  ${statuses}${counts ? `  FINDINGS ${counts}` : ''}  ${t.seconds.toFixed(1)} s`;
}

/** A route's most frequent refusals, for the report. */
export function refusalLine(t: RouteTally, top = 12): string {
  const refusals = [...t.refusals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, n]) => `${k}×${n}`).join(', ');
  return `${t.label}  ${refusals}${t.refusals.size > top ? `, … (${t.refusals.size} kinds)` : ''}`;
}

/** The findings of a run, grouped by route and problem, with one reproduction each. */
export function findingLines(run: FuzzRun): string[] {
  return [
    ...run.routes.flatMap((t) => t.examples.map((e) => `${t.label} · ${e.bucket} · ${e.verdict.problem} · ${e.kind} → ${e.status} ${e.verdict.detail}\n    ${e.reproduction}`)),
    ...run.followers.parked.map((p) => `followers · parked · ${p.name} could not apply ${p.type} (${p.streamId}, position ${p.position}): ${p.error}`),
    ...(run.followers.caughtUp ? [] : [`followers · not caught up ${FOLLOWERS_DRAIN_MS / 1000} s after the last route`]),
  ];
}
