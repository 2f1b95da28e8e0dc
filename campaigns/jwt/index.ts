// `npm run campaign -- jwt`: forged and misused tokens on every authenticated route (issue 21, item 6).
// The routes come from the service itself (services.routes and services.sapi.routes), so a new
// route is attacked without anyone listing it. Each forgery is sent as `Authorization: Bearer` to
// each route whose auth is `api` or `user`; any answer but 401 counts as accepted. A control run
// with the real tokens shows every attacked route does get past authentication with a good one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { startTestService, type TestService } from '../../test/support/service.ts';
import { forgeries, type Forgery } from './forge.ts';
import { seededRandom } from '../../src/platform/seeded-random.ts';

/** mulberry32 (src/platform/seeded-random.ts) */
export const prng = seededRandom;

export interface RouteTarget {
  door: 'native' | 'sapi';
  method: string;
  path: string;
  auth: string;
}

export interface JwtResult {
  routes: number;
  /** per forgery kind: tried, accepted, and what an accepted one got */
  kinds: Map<string, { tried: number; accepted: number; examples: string[] }>;
  /** routes where neither the real token nor (native) the API key got past authentication: the route proves nothing */
  controlRefused: string[];
  /** routes that take an API key only (webhook management): every token is refused there by design */
  apiKeyOnly: string[];
  /** fetches of a jku / x5u URL */
  canaryHits: number;
  statuses: Map<number, number>;
}

const uuid = (random: () => number) =>
  'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(random() * 16).toString(16));

/** Every authenticated route the service serves, native and /sapi. */
export function authenticatedRoutes(svc: TestService): RouteTarget[] {
  const native = svc.services.routes.map((r) => ({ door: 'native' as const, method: r.method, path: r.path, auth: r.auth }));
  const sapi = svc.services.sapi.routes.map((r) => ({ door: 'sapi' as const, method: r.method, path: r.path, auth: r.auth }));
  return [...native, ...sapi].filter((r) => r.auth === 'api' || r.auth === 'user');
}

export interface JwtAttackOptions {
  seed: number;
  /** at most this many routes (a seeded sample); all when absent */
  maxRoutes?: number;
  log?: (line: string) => void;
}

export async function attackJwt(options: JwtAttackOptions): Promise<JwtResult> {
  const random = prng(options.seed);
  const log = options.log ?? (() => {});
  let canaryHits = 0;
  const canary = createServer((_req, res) => {
    canaryHits++;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  // the service signs with a key the campaign knows, so it can forge tokens wrong only in their claims
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk: JWK = await exportJWK(privateKey);
  const svc = await startTestService({ identity: { jwtPrivateKeyPem: await exportPKCS8(privateKey) } });
  try {
    const jwks = (await (await fetch(`${svc.root}/.well-known/jwks.json`)).json()) as { keys: (JWK & { kid: string })[] };
    const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(svc.demo.admin) });
    const session = (await login.json()) as { access_token: string; refresh_token: string };
    const company = svc.demo.companies[0]!;
    const sapiLogin = await fetch(`${svc.root}/sapi/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: company.sapi.client_id, client_secret: company.sapi.client_secret, grant_type: 'client_credentials' }) });
    const sapiSession = (await sapiLogin.json()) as { access_token: string; refresh_token: string };
    if (!session.access_token || !sapiSession.access_token) throw new Error(`could not sign in: ${login.status} ${sapiLogin.status}`);
    const input = { publicJwk: jwks.keys[0]!, privateJwk, native: session.access_token, sapi: sapiSession.access_token, canary: canaryUrl };
    const refresh = (token: string): Forgery => ({ kind: 'a refresh token used as an access token', token });
    const tokens = {
      native: await forgeries(input, 'native', [refresh(session.refresh_token), refresh(sapiSession.refresh_token)]),
      sapi: await forgeries(input, 'sapi', [refresh(sapiSession.refresh_token), refresh(session.refresh_token)]),
    };

    let routes = authenticatedRoutes(svc);
    if (options.maxRoutes !== undefined && routes.length > options.maxRoutes) {
      // always some of each door, the rest at random
      const pick = (list: RouteTarget[], n: number) => [...list].sort(() => random() - 0.5).slice(0, n);
      const sapiRoutes = routes.filter((r) => r.door === 'sapi');
      const sapiShare = Math.max(2, Math.round(options.maxRoutes / 4));
      routes = [...pick(sapiRoutes, sapiShare), ...pick(routes.filter((r) => r.door === 'native'), options.maxRoutes - Math.min(sapiShare, sapiRoutes.length))];
    }
    const fill = (path: string) =>
      path.replace(/\{([^}]+)\}|:([A-Za-z_]+)/g, (_m, a?: string, b?: string) => {
        const name = (a ?? b ?? '').toLowerCase();
        return name.includes('company') ? company.id : uuid(random);
      });
    const send = async (route: RouteTarget, token: string, apiKey = false): Promise<number> => {
      const url = route.door === 'native' ? `${svc.api}${fill(route.path)}` : `${svc.root}/sapi${fill(route.path)}`;
      const headers: Record<string, string> = apiKey ? { 'x-api-key': token } : { authorization: `Bearer ${token}` };
      if (route.door === 'sapi') headers['x-peppol-participant-id'] = company.sapi.participant_id;
      const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method.toUpperCase());
      if (hasBody) headers['content-type'] = 'application/json';
      const response = await fetch(url, { method: route.method.toUpperCase(), headers, body: hasBody ? '{}' : undefined, redirect: 'manual' });
      await response.arrayBuffer();
      return response.status;
    };

    const result: JwtResult = { routes: routes.length, kinds: new Map(), controlRefused: [], apiKeyOnly: [], canaryHits: 0, statuses: new Map() };
    for (const route of routes) {
      const good = route.door === 'native' ? session.access_token : sapiSession.access_token;
      if ((await send(route, good)) === 401) {
        const name = `${route.method} ${route.path}`;
        if (route.door === 'native' && (await send(route, svc.demo.api_key, true)) !== 401) result.apiKeyOnly.push(name);
        else result.controlRefused.push(name);
      }
      for (const forgery of tokens[route.door]) {
        const status = await send(route, forgery.token);
        result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
        const kind = result.kinds.get(forgery.kind) ?? { tried: 0, accepted: 0, examples: [] };
        kind.tried++;
        if (status !== 401) {
          kind.accepted++;
          if (kind.examples.length < 5) kind.examples.push(`${status} on ${route.method} ${route.door === 'sapi' ? '/sapi' : '/api/v1'}${route.path}`);
        }
        result.kinds.set(forgery.kind, kind);
      }
    }
    result.canaryHits = canaryHits;
    log(`routes attacked: ${routes.length} (${routes.filter((r) => r.door === 'sapi').length} under /sapi)`);
    return result;
  } finally {
    await svc.close();
    await new Promise<void>((resolve) => canary.close(() => resolve()));
  }
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const result = await attackJwt({ seed: options.seed, maxRoutes: options.quick ? 30 : undefined, log: (l) => console.log(l) });
  const figures: Figure[] = [{ name: 'authenticated routes attacked', value: result.routes, target: options.quick ? 'a seeded sample (--quick)' : 'all from the router' }];
  for (const [kind, k] of result.kinds) {
    figures.push({ scope: kind, name: 'forged tokens tried', value: k.tried });
    figures.push({ scope: kind, name: 'forged tokens accepted', value: k.accepted, target: '0', ok: k.accepted === 0 });
  }
  const tried = [...result.kinds.values()].reduce((s, k) => s + k.tried, 0);
  const accepted = [...result.kinds.values()].reduce((s, k) => s + k.accepted, 0);
  figures.push(
    { scope: 'all', name: 'forged tokens tried', value: tried },
    { scope: 'all', name: 'forged tokens accepted', value: accepted, target: '0', ok: accepted === 0 },
    { scope: 'all', name: 'jku / x5u fetches', value: result.canaryHits, target: '0', ok: result.canaryHits === 0 },
    { scope: 'control', name: 'routes the real credentials do not get past authentication', value: result.controlRefused.length, target: '0', ok: result.controlRefused.length === 0 },
    { scope: 'control', name: 'routes taking an API key only (every token refused by design)', value: result.apiKeyOnly.length },
  );
  return {
    name: 'jwt', seed: options.seed, startedAt: new Date(started).toISOString(), seconds: (Date.now() - started) / 1000, figures,
    notes: [
      `statuses of forged requests: ${[...result.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ')}`,
      ...[...result.kinds].flatMap(([kind, k]) => k.examples.map((e) => `ACCEPTED ${kind}: ${e}`)),
      ...result.controlRefused.map((r) => `control: the real credentials were refused on ${r}`),
      ...(result.apiKeyOnly.length > 0 ? [`API key only (spec: webhook management takes an API key): ${result.apiKeyOnly.join(', ')}`] : []),
    ],
  };
}
