import { merge } from 'rxjs';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { CodeLists } from '../commands/invoices/code-lists.ts';
import { OPENPEPPOL_REPORTING_RECEIVER, receivePeppolMessage, withLocalParticipants, type InboundPeppolMessage, type ReceivingDeps } from './modules/delivery/index.ts';
import { spisParticipantOf } from './modules/delivery/index.ts';
import { newLookups, type Lookups } from './modules/invoices/index.ts';
import { SeriesReservations } from './modules/invoices/index.ts';
import { settlementReader, type SettlementReader } from './modules/payments/index.ts';
import { usageCounts, type UsageCounts } from './modules/usage/index.ts';
import type { Config } from './platform/config.ts';
import type { Core, ReadYourWrites } from './platform/core.ts';
import { openEmbeddedDataDir } from './platform/db/embedded-default.ts';
import type { EmbeddedPostgres } from './platform/db/embedded.ts';
import { endPool } from './platform/db/end-pool.ts';
import { isPglite } from './platform/db/is-pglite.ts';
import { resilientPool } from './platform/db/resilient-pool.ts';
import { createEventStore } from './platform/eventstore/index.ts';
import { rewriteStoredEvents } from './platform/eventstore/postgres/index.ts';
import type { StoredEventRewrite } from './platform/eventstore/rewrite.ts';
import { NO_FEED, followerFeed, type FollowerFeed } from './platform/followers/follower-feed.ts';
import { SOLE_INSTANCE, advisoryLeases, type FollowerLeases } from './platform/followers/lease.ts';
import type { Route } from './doors/native/route.ts';
import { ApiKeyLookup } from './modules/identity/index.ts';
import type { Credentials } from './modules/identity/index.ts';
import { LastUsed } from './modules/identity/index.ts';
import { startRevocationFeed } from './modules/identity/index.ts';
import { Revocations } from './modules/identity/index.ts';
import { loadSigningKeys, type SigningKeyRing, type SigningKeys } from './modules/identity/index.ts';
import { totpSecrets, type TotpSecrets } from './modules/identity/index.ts';
import { loadCodeLists } from './modules/invoices/index.ts';
import type { BucketStore } from './platform/limits/bucket-store.ts';
import { NO_GUARD, invalidCredentialGuard } from './platform/limits/invalid-credential-guard.ts';
import type { Limits } from './platform/limits/limits.ts';
import { createMemoryStore } from './platform/limits/memory-store.ts';
import { createPostgresStore } from './platform/limits/postgres-store.ts';
import { createLogger } from './platform/logging.ts';
import { approvalsModule } from './modules/approvals/wiring.ts';
import { bulkImportModule } from './modules/bulk-import/wiring.ts';
import { creditNotesModule } from './modules/credit-notes/wiring.ts';
import { customersModule } from './modules/customers/wiring.ts';
import { deliveryModule } from './modules/delivery/wiring.ts';
import { identityModule } from './modules/identity/wiring.ts';
import { exportsModule } from './modules/exports/wiring.ts';
import { invoicePdfModule } from './modules/invoice-pdf/wiring.ts';
import { invoicesModule } from './modules/invoices/wiring.ts';
import { paymentsModule } from './modules/payments/wiring.ts';
import { reportingModule } from './modules/reporting/wiring.ts';
import { reportMlsMatcher } from './modules/reporting/index.ts';
import type { Module, Worker } from './modules/module.ts';
import type { SandboxCorner5 } from './modules/delivery/index.ts';
import type { PeppolNetwork } from './modules/delivery/index.ts';
import { checkSandboxRules, sandbox } from './modules/delivery/index.ts';
import { sandboxParticipantDirectory } from './modules/delivery/index.ts';
import type { ReceiveMessage } from './modules/delivery/index.ts';
import { loadStaticEndpoints, peppolDiscovery, type CheckCertificate } from './modules/delivery/index.ts';
import { loadPeppolPki, type PeppolPki, type RevocationFetch } from './modules/delivery/index.ts';
import { as4PeppolNetwork, as4Receiver, distrustOf, type As4Receiver } from './modules/delivery/index.ts';
import { systemResolver } from './platform/http-client/target-guard.ts';
import { systemClock, type Clock } from './platform/ports/clock.ts';
import { randomIds, type Ids } from './platform/ports/ids.ts';
import { ReactorRunner } from './platform/reactors/runner.ts';
import { followerLags } from './platform/metrics/follower-lag.ts';
import { createMetrics, type Metrics } from './platform/metrics/metrics.ts';
import { timedValidator } from './platform/metrics/validator.ts';
import { trackedValidator, type ValidationStage } from './platform/readiness/validation-stage.ts';
import { migrateReadModels, readModelsSource } from './platform/readmodel/data-source.ts';
import { ProjectionRunner } from './platform/readmodel/projection-runner.ts';
import { createValidator, type Validator, type ValidatorSource } from './platform/validation/index.ts';
import { webhooksModule } from './modules/webhooks/wiring.ts';
import { lookupModule } from './modules/lookup/wiring.ts';
import { tenancyModule } from './modules/tenancy/wiring.ts';
import type { CompanyRegistry } from './modules/lookup/index.ts';
import { sapiModule } from './modules/sapi/wiring.ts';
import { sapiFsMlsMatcher, sapiMlsMatcher, type SapiClientGate } from './modules/sapi/index.ts';
import type { SapiRoute } from './doors/sapi/route.ts';
import type { WorkerOptions } from './modules/bulk-import/index.ts';
import { webhookSecrets, type WebhookSecrets } from './modules/webhooks/index.ts';
import type { Resolver } from './modules/webhooks/index.ts';

/**
 * The composition root: builds the core (databases, event store, read models, clock, ids, log,
 * config) and the shared adapters once, and lists the modules. Only the entry points (main.ts, the
 * CLI, the test harness and benchmarks) import it; no module does.
 */

/** The networks delivery talks to: the sandbox by default; a test harness passes its own to turn the sandbox's fault switches. */
type Networks = (core: Pick<Core, 'readModels' | 'clock'>, config: Config, receive: ReceiveMessage, ourSpis: string) => { peppol: PeppolNetwork; fs: SandboxCorner5 };

interface ServiceOptions {
  log?: Logger;
  /** false: one-shot CLI commands that drive projectors themselves (no runners, no revocation feed) */
  runProjections?: boolean;
  runReactors?: boolean;
  clock?: Clock;
  ids?: Ids;
  networks?: Networks;
  /** the embedded default's database, already being opened (main.ts starts it before loading the rest); closed with the service */
  embedded?: Promise<EmbeddedPostgres>;
  /** DNS for the webhook SSRF guard (tests answer what they like); the system resolver by default */
  resolve?: Resolver;
  /** the company registers lookups ask; by default the ones COMPANY_REGISTRY names (a test passes a sandbox with its fault switches) */
  companyRegistries?: (core: Pick<Core, 'readModels'>) => CompanyRegistry[];
  /** the bulk-import worker's concurrency and chunk (tests and benches); its defaults otherwise */
  bulkImport?: WorkerOptions;
  /** how the Peppol PKI fetches OCSP answers and CRLs (tests: a bounded fetch that admits their loopback responder); public addresses only by default */
  peppolRevocationFetch?: RevocationFetch;
  /**
   * The certificate check discovery asks (SMP signers, Access Point certificates): by default the
   * Peppol PKI's (PEPPOL_NETWORK=as4); without it nothing is trusted, so PEPPOL_DIRECTORY=smp finds
   * no usable SMP answer rather than believing an unverified one. Tests may pass a double.
   */
  checkCertificate?: CheckCertificate;
}

const TRUST_NOTHING: CheckCertificate = async () => ({ ok: false, reason: 'no_trust_configured', message: 'no Peppol trust anchors are configured' });

/** The running service, as entry points see it. */
export interface Service extends Core {
  /** 'pglite' when running on the embedded default */
  database: 'pglite' | 'postgres';
  /** every module's routes, in order (the HTTP app serves them) */
  routes: Route[];
  /** the SAPI-SK door's routes and gate (served under /sapi) */
  sapi: { routes: SapiRoute[]; gate?: SapiClientGate };
  projections: ProjectionRunner;
  reactors: ReactorRunner;
  /** the modules' long-running loops (the scheduled delivery steps, webhook delivery, bulk import): tests stop and start them */
  workers: readonly Worker[];
  /** the leases of the projectors and reactors this instance runs (all of them on PGlite) */
  followers: Pick<FollowerLeases, 'holding'>;
  /** the Prometheus instruments, served at /metrics */
  metrics: Metrics;
  /** can invoices be checked: compiling, ready or unavailable (health, the first start's terminal) */
  validationStage(): ValidationStage;
  auth: Credentials;
  identity: SigningKeys;
  limits: Limits;
  validator: ValidatorSource;
  codeLists: CodeLists | null;
  series: SeriesReservations;
  lookups: Lookups;
  settlement: SettlementReader;
  usage: UsageCounts;
  network: PeppolNetwork;
  /** our Access Point's SPIS participant (`0242:` + its seat id's digits): where MLS come to, and from */
  ourSpis: string;
  /** PEPPOL_NETWORK=as4: our Access Point's identity, trust anchors and certificate check; null in the sandbox */
  peppolPki: PeppolPki | null;
  /** PEPPOL_NETWORK=as4: what POST /as4 does with a message; null in the sandbox (no /as4) */
  as4: As4Receiver | null;
  /** the key sealing webhook secrets (main.ts loads it at start) */
  webhookSecrets: WebhookSecrets;
  /** the key sealing TOTP secrets (main.ts loads it at start) */
  totpSecrets: TotpSecrets;
  close(): Promise<void>;
}

/** The PKI's check (PEPPOL_AP_TRUST, PEPPOL_SMP_TRUST, PEPPOL_REVOCATION) as discovery's port, at the clock's time. */
function pkiCheck(pki: PeppolPki, clock: Clock): CheckCertificate {
  return (certificate, purpose) => pki.check(certificate, purpose, clock.now());
}

/** Peppol discovery (static routes, SML, SMP) as configured; a bad static table or zone stops the start. */
function discoveryOf(config: Config, log: Logger, options: ServiceOptions, peppolPki: PeppolPki | null) {
  const { discovery } = config.delivery;
  if (discovery.allowLoopback) log.warn('PEPPOL_DISCOVERY_ALLOW_LOOPBACK is on: an SMP named by DNS may be on loopback; never in production');
  return peppolDiscovery({
    smlZone: config.delivery.smlZone,
    dnsServers: discovery.dnsServers,
    timeoutMs: discovery.timeoutMs,
    smpCacheMs: discovery.smpCacheMs,
    staticEndpoints: discovery.staticEndpointsFile === undefined ? undefined : loadStaticEndpoints(discovery.staticEndpointsFile),
    checkCertificate: options.checkCertificate ?? (peppolPki ? pkiCheck(peppolPki, options.clock ?? systemClock) : TRUST_NOTHING),
    guard: { allowLoopback: discovery.allowLoopback, resolve: options.resolve ?? systemResolver },
    clock: options.clock,
    log,
  });
}

/** The shared buckets in Redis; a Redis that is down at start is waited for briefly, then reconnected to in the background (the limiter lets requests through meanwhile). */
async function openRedisBuckets(url: string, keyPrefix: string, log: Logger): Promise<BucketStore> {
  // ioredis is loaded only when configured: it costs a start without Redis ~0.3 s of CPU
  const { createRedisStore } = await import('./platform/limits/redis-store.ts');
  const store = createRedisStore({ url, keyPrefix });
  await store.ready(2_000).catch((error: unknown) => log.warn({ err: error }, 'Redis for rate limits is not reachable yet: requests pass unlimited until it is'));
  return store;
}

/** The database URL: the configured one, or PGlite under DATA_DIR (made private, locked against a second owner). */
async function openDatabase(config: Config, log: Logger, embedded?: Promise<EmbeddedPostgres>): Promise<{ url: string; close(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: async () => {} };
  const database = await (embedded ?? openEmbeddedDataDir(config.dataDir, (line) => log.warn(line)));
  return { url: database.connectionString, close: () => database.close() };
}

/**
 * Runs the modules' rewrites of stored events (src/platform/eventstore/rewrite.ts) where the events
 * are in Postgres or PGlite. An EventStoreDB log cannot be changed: what it holds stays as written,
 * and the log says so (docs/identity.md: users re-enrol two-factor to replace such a secret).
 */
async function rewriteStored(config: Config, pool: pg.Pool, rewrites: readonly StoredEventRewrite[], log: Logger): Promise<void> {
  for (const rewrite of rewrites) {
    if (config.eventstoreUrl) {
      log.warn({ rewrite: rewrite.name, type: rewrite.type }, 'events in EventStoreDB cannot be rewritten: any stored before this release stay as written');
      continue;
    }
    const rewritten = await rewriteStoredEvents(pool, rewrite);
    if (rewritten !== null) log.info({ rewrite: rewrite.name, type: rewrite.type, events: rewritten }, 'stored events rewritten');
  }
}

/**
 * Opens the databases the configuration names (PGlite under DATA_DIR when no DATABASE_URL), the
 * event store and the read models, builds the modules and starts their projectors and reactors.
 */
export async function openService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const log = options.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  // before any database opens: a missing or unreadable certificate refuses the start with nothing to close
  const peppolPki = await loadPeppolPki(config.peppol, { log, fetch: options.peppolRevocationFetch });
  const fsRules = checkSandboxRules(config.delivery.fsSandboxRejectRules);
  // parsed while the database starts (the embedded one on its thread), not after it
  const loadingCodeLists = loadCodeLists(config.validationArtifactsDir).catch((error: unknown) => {
    // a sentence, not a stack: the usual cause is a machine without the artifacts
    log.warn({ dir: config.validationArtifactsDir, reason: error instanceof Error ? error.message : String(error) }, 'code lists not loaded: invoices cannot be checked (set VALIDATION_ARTIFACTS_DIR or run scripts/fetch-validation-artifacts.sh)');
    return null;
  });
  const embedded = !config.databaseUrl;
  const database = await openDatabase(config, log, options.embedded);
  // PGlite runs one transaction at a time: a few connections are plenty there.
  // a Postgres restart must not end the process (resilient-pool.ts)
  const pool = resilientPool({ connectionString: database.url, max: embedded ? 4 : config.databasePool.events }, log);
  const store = await createEventStore({ pool, eventstoreUrl: config.eventstoreUrl });
  const readModels = readModelsSource(database.url, embedded ? 4 : config.databasePool.readModels);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const codeLists = await loadingCodeLists;

  // routes wait on the runner, which follows the projectors the modules declare: it is made after them
  const made: { runner?: ProjectionRunner } = {};
  const projections: ReadYourWrites = {
    caughtUp: async (position, timeoutMs, names) => {
      if (!made.runner) throw new Error('the read models are not open yet');
      return made.runner.caughtUp(position, timeoutMs, names);
    },
  };
  const core: Core = { config, log, store, readModels, projections, clock, ids };
  // the followers' lag is read at each scrape, from the runners made below
  const followers: { projections?: ProjectionRunner; reactors?: ReactorRunner } = {};
  const metrics = createMetrics(async () => followerLags(store, [
    ...(followers.projections?.current() ?? []).map((f) => ({ kind: 'projector' as const, ...f })),
    ...(followers.reactors ? await followers.reactors.checkpoints() : []).map((f) => ({ kind: 'reactor' as const, ...f })),
  ], clock.now()));
  const counting = store.appendedTypes$.subscribe(({ types }) => {
    metrics.appends.inc();
    for (const type of types) metrics.appendedTypes.inc({ type });
  });

  let validator: Promise<Validator> | undefined;
  const validation = trackedValidator(() => (validator ??= createValidator({ artifactsDir: config.validationArtifactsDir })), codeLists !== null);
  const getValidator: ValidatorSource = timedValidator(validation.source, metrics);
  let ring: Promise<SigningKeyRing> | undefined;
  const identity: SigningKeys = {
    ring: () => (ring ??= loadSigningKeys({
      dataDir: config.dataDir, embedded, privateKeyPem: config.identity.jwtPrivateKeyPem, keyId: config.identity.jwtKeyId,
      previousPublicKeys: config.identity.jwtPreviousPublicKeys,
    })),
  };
  const lastUsed = new LastUsed({ readModels, log });
  const apiKeys = new ApiKeyLookup({ readModels, clock });
  const auth: Credentials = { apiKeys, lastUsed, revocations: new Revocations({ readModels, clock, apiKeys }) };
  // shared by every instance: Redis when configured, else the Postgres they share; in memory only on PGlite (one process)
  const onPglite = await isPglite(pool);
  const buckets = config.redisUrl
    ? await openRedisBuckets(config.redisUrl, config.identity.rateLimitRedisPrefix, log)
    : onPglite ? createMemoryStore() : createPostgresStore({ url: database.url });
  // RATE_LIMIT=off: nothing is limited, bad keys and sign-in failures included
  const limits: Limits = { store: buckets, guard: config.identity.rateLimit ? invalidCredentialGuard({ store: buckets, log }) : NO_GUARD };
  // our Access Point's MLS address: the seat id of its certificate under AS4, else PEPPOL_SERVICE_PROVIDER_ID's
  const ourSpis = spisParticipantOf(peppolPki?.identity.commonName ?? '') ?? spisParticipantOf(config.delivery.serviceProviderId) ?? '0242:000000';
  // an MLS that answers no invoice may answer a SAPI-SK document (its Peppol message, or its filing), or a monthly report
  const receiving: ReceivingDeps = { ...core, validator: getValidator, ourSpis, mlsMatchers: [sapiMlsMatcher(core), sapiFsMlsMatcher(core), reportMlsMatcher(core)] };
  // the sandbox's messages come from our own sending side; AS4 names the sending Access Point
  const receive = async (message: Parameters<ReceiveMessage>[0]) => void (await receivePeppolMessage(receiving, { ...message, sending_ap: null }));
  const receiveAs4 = async (message: InboundPeppolMessage) => void (await receivePeppolMessage(receiving, message));
  const networks = (options.networks ?? ((deps, cfg, received, spis) => sandbox(deps, cfg.delivery, fsRules, received, spis)))(core, config, receive, ourSpis);
  // the sandbox's corner 5 answers TDDs sent to FS_PARTICIPANT_ID (always in the sandbox; under AS4 when FS_CORNER5=sandbox)
  if (config.peppol.network === 'sandbox') receiving.reportingStandIn = config.delivery.reporting.receiver ?? OPENPEPPOL_REPORTING_RECEIVER;
  receiving.corner5 = config.delivery.fsCorner5 === 'sandbox' ? { participant: config.delivery.fsParticipantId, take: (id, tdd, judged) => networks.fs.take(id, tdd, judged), judge: (root) => networks.fs.judgeElement(root) } : null;
  const discovery = config.delivery.participantDirectory === 'smp' || peppolPki ? discoveryOf(config, log, options, peppolPki) : null;
  // PEPPOL_NETWORK=as4: Peppol legs go out over AS4 and /as4 takes messages in; FS stays as built
  const as4Network = peppolPki && discovery
    ? as4PeppolNetwork({ identity: peppolPki.identity, discovery, guard: { allowLoopback: config.delivery.discovery.allowLoopback, resolve: options.resolve ?? systemResolver }, clock, log })
    : null;
  const peppol = !as4Network ? networks.peppol
    : withLocalParticipants(as4Network, { ourSpis, corner5: config.delivery.fsCorner5 === 'sandbox' ? config.delivery.fsParticipantId : null }, receive, () => clock.now());
  const as4 = peppolPki
    ? as4Receiver({ store, ids, identity: peppolPki.identity, trustSender: distrustOf(peppolPki.check, 'ap', () => clock.now()), readModels, receive: receiveAs4, ourSpis, clock, log,
      corner5Participant: config.delivery.fsCorner5 === 'sandbox' ? config.delivery.fsParticipantId : null })
    : null;
  const invoicing = { ...core, codeLists, series: new SeriesReservations({ store, ids }), lookups: newLookups(), validator: getValidator, settlement: settlementReader(core) };
  const shared = {
    ...invoicing, auth, identity, limits, usage: usageCounts({ store, ids }), network: peppol, ourSpis,
    participants: config.delivery.participantDirectory === 'smp' && discovery ? discovery : sandboxParticipantDirectory(readModels),
    // on PGlite this process is the only one on the database: a lease on scheduled work found at start is a dead process's
    soleInstance: onPglite,
  };

  const secrets = webhookSecrets({ configured: config.webhooks.secretKey, dataDir: config.dataDir, embedded });
  const totp = totpSecrets({ configured: config.identity.totpSecretKey, dataDir: config.dataDir, embedded });
  if (config.webhooks.allowLoopbackTargets) log.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may call loopback addresses (127.0.0.0/8, ::1); never in production');

  const modules: Module[] = [
    identityModule({ ...shared, totpSecrets: totp }),
    customersModule(core),
    // before invoicing: its …/invoices/export.csv must match before …/invoices/{invoice_id}
    exportsModule(invoicing),
    invoicesModule(invoicing),
    invoicePdfModule(invoicing),
    deliveryModule(shared),
    creditNotesModule(shared),
    paymentsModule(invoicing),
    approvalsModule(invoicing),
    webhooksModule({ ...core, secrets, resolve: options.resolve, metrics }),
    sapiModule(shared),
    lookupModule({ ...core, registries: options.companyRegistries?.(core) }),
    tenancyModule(core),
    bulkImportModule({ ...shared, bulkImport: options.bulkImport }),
    reportingModule(shared),
  ];

  // before anything follows the log: a secret stored in plaintext leaves it (once per store)
  await rewriteStored(config, pool, modules.flatMap((m) => m.rewrites ?? []), log).catch(async (error: unknown) => {
    // its key missing: nothing has started yet, so close what is open and leave no connection behind
    counting.unsubscribe();
    await buckets.close();
    await store.close();
    await endPool(pool);
    await database.close();
    throw error;
  });
  const projectors = modules.flatMap((m) => m.projectors);
  await migrateReadModels(readModels, projectors, modules.flatMap((m) => m.entities ?? []), modules.flatMap((m) => m.migrations ?? []));
  const serving = options.runProjections !== false;
  // Several instances may share a Postgres: each follower runs where its lease is held, and the
  // instances tell each other of appends and projector positions (src/platform/followers). On PGlite one
  // process owns the files: it holds every lease and needs no feed.
  const manyInstances = serving && !onPglite;
  const leases: FollowerLeases = manyInstances ? advisoryLeases({ url: database.url, log }) : SOLE_INSTANCE;
  const feed: FollowerFeed = manyInstances ? await followerFeed({ url: database.url, log, appended: store.appendedTypes$ }) : NO_FEED;
  const appended$ = merge(store.appendedTypes$, feed.appended$);
  const runner = new ProjectionRunner(store, readModels, projectors, log, { leases, appended$, report: (name, position) => feed.report(name, position) });
  const observing = feed.positions$.subscribe(({ name, position }) => runner.observe(name, position));
  made.runner = runner;
  const reactors = new ReactorRunner(store, readModels, modules.flatMap((m) => m.reactors), log, {
    pollMs: 100, observe: (reactor, outcome) => metrics.reactions.inc({ reactor, outcome }), leases, appended$,
  });
  followers.projections = runner;
  followers.reactors = reactors;
  if (serving) await runner.start();
  const workers = modules.flatMap((m) => m.workers ?? []);
  if (serving && options.runReactors !== false) {
    await reactors.start();
    for (const worker of workers) worker.start();
  }
  lastUsed.start();
  // one-shot CLI commands serve no requests: they need not hear revocations
  const revocationFeed = serving ? await startRevocationFeed({ url: database.url, readModels, revocations: auth.revocations, apiKeys, log }) : null;

  return {
    ...shared,
    peppolPki,
    as4,
    projections: runner,
    webhookSecrets: secrets,
    totpSecrets: totp,
    database: embedded ? 'pglite' : 'postgres',
    routes: modules.flatMap((m) => m.routes),
    sapi: { routes: modules.flatMap((m) => m.sapi?.routes ?? []), gate: modules.find((m) => m.sapi?.gate)?.sapi?.gate },
    reactors,
    workers,
    followers: { holding: () => (manyInstances ? leases.holding() : [...projectors.map((p) => p.name), ...reactors.reactors.map((r) => r.name)]) },
    metrics,
    validationStage: validation.stage,
    async close() {
      counting.unsubscribe();
      await lastUsed.stop();
      await revocationFeed?.close();
      await buckets.close();
      await Promise.all(workers.map((w) => w.stop()));
      await reactors.stop();
      if (validator) await (await validator).close();
      await runner.stop();
      observing.unsubscribe();
      await feed.close();
      // after the runners stopped: another instance takes their followers over at once
      await leases.close();
      await readModels.destroy();
      await store.close();
      await endPool(pool);
      await database.close();
    },
  };
}
