import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config, type DeliveryConfig, type IdentityConfig, type PeppolConfig, type WebhookConfig } from '../../src/platform/config.ts';
import type { Clock } from '../../src/platform/ports/clock.ts';
import { createDemo, type DemoCredentials } from '../../src/demo/bootstrap.ts';
import { ephemeralSigningKeyPem } from '../../src/modules/identity/ephemeral-key.ts';
import { createApp } from '../../src/doors/native/app.ts';
import { sandboxRegistry, type SandboxRegistry } from '../../src/modules/lookup/registers/sandbox/index.ts';
import { registeredCompaniesOf } from '../../src/modules/lookup/registers/sandbox/registered.ts';
import { checkSandboxRules, sandbox as sandboxNetworks, type Sandbox } from '../../src/modules/delivery/sandbox/index.ts';
import { openService, type Service } from '../../src/service.ts';
import type { RevocationFetch } from '../../src/modules/delivery/index.ts';
import type { CheckCertificate } from '../../src/modules/delivery/peppol/certificate-check.ts';
import type { Resolver } from '../../src/platform/http-client/target-guard.ts';
import { listen } from '../api/support/http.ts';
import { freshDatabase, type TestDatabase } from './database.ts';

export interface TestService {
  /** 'http://127.0.0.1:<port>/api/v1' */
  api: string;
  root: string;
  demo: DemoCredentials;
  services: Service;
  /** the sandbox Peppol network and FS the service runs on, with their fault switches */
  sandbox: Sandbox;
  /** the sandbox company register lookups ask, with its fault switches */
  registry: SandboxRegistry;
  /** fetch with the demo organisation's API key and JSON */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/**
 * The whole service on a fresh database (PGlite, or Postgres with DATABASE_URL), with the demo,
 * over real HTTP. Rate limits are off unless asked for: suites make hundreds of calls with one key.
 */
export async function startTestService(
  options: { delivery?: Partial<DeliveryConfig>; checkCertificate?: CheckCertificate; webhooks?: Partial<WebhookConfig>; resolve?: Resolver; runReactors?: boolean; rateLimit?: boolean; redis?: { url: string; prefix: string }; log?: Logger; clock?: Clock; identity?: Partial<IdentityConfig>; validationArtifactsDir?: string; validateResponses?: boolean; databasePool?: Config['databasePool']; database?: TestDatabase; peppol?: PeppolConfig; peppolRevocationFetch?: RevocationFetch; demo?: DemoCredentials; unansweredParticipants?: string[]; metricsToken?: string; upgradeUrl?: string } = {},
): Promise<TestService> {
  // a suite that restarts the service on the same database passes it (and drops it itself)
  const database = options.database ?? (await freshDatabase());
  // defaults, not this shell's settings, but for where the official validation artifacts are
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  // tests run the delivery legs quickly: short sandbox delays, retries in milliseconds
  // the monthly Peppol Reporting run only where a suite asks for it: on the 1st to the 15th it would add its own sends to every suite's
  const delivery: DeliveryConfig = {
    ...defaults.delivery, retryBaseMs: 20, sandboxDeliveryStatusDelayMs: 50, fsSandboxDelayMs: 50, reporting: { ...defaults.delivery.reporting, schedule: false }, ...options.delivery,
  };
  const identity = { ...defaults.identity, rateLimit: options.rateLimit ?? false, rateLimitRedisPrefix: options.redis?.prefix ?? defaults.identity.rateLimitRedisPrefix, jwtPrivateKeyPem: await ephemeralSigningKeyPem(), totpSecretKey: randomBytes(32).toString('base64'), ...options.identity };
  // webhooks: a key for this run, retries in milliseconds, local receivers allowed
  const webhooks = { ...defaults.webhooks, secretKey: randomBytes(32).toString('base64'), backoffScale: 0.001, allowLoopbackTargets: true, ...options.webhooks };
  const config = {
    ...defaults, databaseUrl: database.connectionString, delivery, identity, webhooks, redisUrl: options.redis?.url,
    validationArtifactsDir: options.validationArtifactsDir ?? defaults.validationArtifactsDir,
    databasePool: options.databasePool ?? defaults.databasePool,
    peppol: options.peppol ?? defaults.peppol,
    metricsToken: options.metricsToken ?? defaults.metricsToken,
    upgradeUrl: options.upgradeUrl ?? defaults.upgradeUrl,
  };
  let sandbox: Sandbox | undefined;
  let registry: SandboxRegistry | undefined;
  const services = await openService(config, {
    log: options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    resolve: options.resolve,
    checkCertificate: options.checkCertificate,
    runReactors: options.runReactors,
    clock: options.clock,
    networks: (core, cfg, receive, ourSpis) => {
      sandbox = sandboxNetworks(core, cfg.delivery, checkSandboxRules(cfg.delivery.fsSandboxRejectRules), receive, ourSpis);
      // receivers whose Access Point never answers, from the first attempt the service makes (a restart's included)
      for (const participant of options.unansweredParticipants ?? []) sandbox.peppol.faults.unanswered.add(participant);
      return sandbox;
    },
    companyRegistries: (core) => (registry = sandboxRegistry(registeredCompaniesOf(core.readModels))).registries,
    peppolRevocationFetch: options.peppolRevocationFetch,
  }).catch(async (error: unknown) => {
    // a start the configuration refuses leaves no database behind
    if (!options.database) await database.drop();
    throw error;
  });
  if (!sandbox || !registry) throw new Error('the service did not build its networks or its company register');
  const running = await listen(createApp(services, { validateResponses: options.validateResponses ?? true }));
  const api = `${running.base}/api/v1`;
  // a restart on the same database keeps the demo it made
  const demo = options.demo ?? (await createDemo(services, api));
  return {
    api,
    root: running.base,
    demo,
    services,
    sandbox,
    registry,
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: { 'x-api-key': demo.api_key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async close() {
      await running.close();
      await services.close();
      if (!options.database) await database.drop();
    },
  };
}
