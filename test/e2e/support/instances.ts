// Several service instances, in this process, on one fresh Postgres database: what several
// processes behind a balancer share (the database, Redis), and nothing else.
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig, type Config } from '../../../src/platform/config.ts';
import { createDemo, type DemoCredentials } from '../../../src/demo/bootstrap.ts';
import { createApp } from '../../../src/doors/native/app.ts';
import { ephemeralSigningKeyPem } from '../../../src/modules/identity/ephemeral-key.ts';
import { openService, type Service } from '../../../src/service.ts';
import { listen, type Running } from '../../api/support/http.ts';
import { freshDatabase, type TestDatabase } from '../../support/database.ts';

export interface Instance {
  /** 'http://127.0.0.1:<port>/api/v1' */
  api: string;
  root: string;
  services: Service;
  /** stops serving and closes the service (its leases go at once) */
  close(): Promise<void>;
}

export interface Instances {
  database: TestDatabase;
  demo: DemoCredentials;
  instances: Instance[];
  /** another instance on the same database and Redis */
  add(): Promise<Instance>;
  close(): Promise<void>;
}

export interface InstanceOptions {
  count: number;
  rateLimit?: boolean;
  redis?: { url: string; prefix: string };
}

/** `count` instances on one fresh Postgres (DATABASE_URL must name a server), with the demo made through the first. */
export async function startInstances(options: InstanceOptions): Promise<Instances> {
  const database = await freshDatabase();
  if (database.kind !== 'postgres') throw new Error('several instances need a Postgres server (DATABASE_URL)');
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  // one key for all, as an operator configures it (each would otherwise refuse the others' tokens)
  const identity = {
    ...defaults.identity, rateLimit: options.rateLimit ?? false, jwtPrivateKeyPem: await ephemeralSigningKeyPem(), totpSecretKey: randomBytes(32).toString('base64'),
    rateLimitRedisPrefix: options.redis?.prefix ?? defaults.identity.rateLimitRedisPrefix,
  };
  const config: Config = {
    ...defaults, databaseUrl: database.connectionString, redisUrl: options.redis?.url, identity,
    delivery: { ...defaults.delivery, retryBaseMs: 20, sandboxDeliveryStatusDelayMs: 50, fsSandboxDelayMs: 50 },
    webhooks: { ...defaults.webhooks, secretKey: randomBytes(32).toString('base64'), backoffScale: 0.001, allowLoopbackTargets: true },
  };
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const instances: Instance[] = [];
  const add = async (): Promise<Instance> => {
    const services = await openService(config, { log });
    const running: Running = await listen(createApp(services));
    let closed = false;
    const instance: Instance = {
      api: `${running.base}/api/v1`, root: running.base, services,
      async close() {
        if (closed) return;
        closed = true;
        await running.close();
        await services.close();
      },
    };
    instances.push(instance);
    return instance;
  };
  for (let i = 0; i < options.count; i++) await add();
  const demo = await createDemo(instances[0]!.services, instances[0]!.api);
  return {
    database, demo, instances, add,
    async close() {
      for (const instance of instances) await instance.close();
      await database.drop();
    },
  };
}

/** fetch with JSON and an API key ('' for none), answering status, body and headers. */
export async function call(base: string, method: string, path: string, apiKey: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any, headers: response.headers };
}
