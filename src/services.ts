import pg from 'pg';
import type { Logger } from 'pino';
import { createLogger } from './logging.ts';
import type { DataSource } from 'typeorm';
import { apiKeys } from '../projections/api-keys/projector.ts';
import { CustomerEntity } from '../projections/customer-directory/entity.ts';
import { customerDirectory } from '../projections/customer-directory/projector.ts';
import { invoiceRegister } from '../projections/invoices/projector.ts';
import { tenancy } from '../projections/tenancy/projector.ts';
import type { CodeLists } from '../commands/invoices/code-lists.ts';
import { loadCodeLists } from './invoicing/code-lists-loader.ts';
import { createValidator, type Validator } from './validation/index.ts';
import { newLookups, type Lookups } from './application/lookups.ts';
import { SeriesReservations } from './application/series-cache.ts';
import { usageCounts, type UsageCounts } from './application/usage.ts';
import { receivePeppolMessage } from './application/inbound.ts';
import type { FsAuthority } from './network/fs-authority.ts';
import type { ParticipantDirectory } from './network/participants.ts';
import type { PeppolNetwork } from './network/peppol-network.ts';
import { sandboxDeliveryStatusReactor } from './network/sandbox/delivery-status.ts';
import { sandboxParticipantDirectory } from './network/sandbox/directory.ts';
import { FS_SANDBOX_RULES, sandboxFs, type FsSandbox, type FsSandboxRule } from './network/sandbox/fs.ts';
import { sandboxPeppolNetwork, type PeppolSandbox } from './network/sandbox/peppol.ts';
import { smpParticipantDirectory } from './network/smp/index.ts';
import { fsFilingReactor } from './reactors/delivery/fs-filing.ts';
import { fsVerdictReactor } from './reactors/delivery/fs-verdicts.ts';
import { peppolDeliveryReactor } from './reactors/delivery/peppol-delivery.ts';
import type { Reactor } from './reactors/reactor.ts';
import { ReactorRunner } from './reactors/runner.ts';
import type { Config } from './config.ts';
import { openEmbeddedDataDir } from './db/embedded-default.ts';
import type { EmbeddedPostgres } from './db/embedded.ts';
import { endPool } from './db/end-pool.ts';
import { createEventStore, type EventStore } from './eventstore/index.ts';
import { systemClock, type Clock } from './ports/clock.ts';
import { randomIds, type Ids } from './ports/ids.ts';
import { openReadModels } from './readmodel/data-source.ts';
import { ApiKeyLookup } from './identity/api-key-lookup.ts';
import { startRevocationFeed } from './identity/revocation-feed.ts';
import { Revocations } from './identity/revocations.ts';
import { loadSigningKeys, type SigningKeyRing } from './identity/signing-keys.ts';
import { identity } from '../projections/identity/projector.ts';
import { LastUsed } from './identity/last-used.ts';
import type { BucketStore } from './limits/bucket-store.ts';
import { createMemoryStore } from './limits/memory-store.ts';
import { NO_GUARD, invalidCredentialGuard, type InvalidCredentialGuard } from './limits/invalid-credential-guard.ts';
import { ProjectionRunner } from './readmodel/projection-runner.ts';
import type { Projector } from './readmodel/projector.ts';

/** The shared buckets in Redis; a Redis that is down at start is waited for briefly, then reconnected to in the background (the limiter lets requests through meanwhile). */
async function openRedisBuckets(url: string, keyPrefix: string, log: Logger): Promise<BucketStore> {
  // ioredis is loaded only when configured: it costs a start without Redis ~0.3 s of CPU
  const { createRedisStore } = await import('./limits/redis-store.ts');
  const store = createRedisStore({ url, keyPrefix });
  await store.ready(2_000).catch((error: unknown) => log.warn({ err: error }, 'Redis for rate limits is not reachable yet: requests pass unlimited until it is'));
  return store;
}

/** Every read model of the service, in the order their migrations apply. */
export const projectors: readonly Projector[] = [tenancy, apiKeys, identity, customerDirectory, invoiceRegister];
const entities = [CustomerEntity];

/** The wired-up service: what HTTP routes, the CLI and reactors are given. */
export interface Services {
  config: Config;
  log: Logger;
  store: EventStore;
  readModels: DataSource;
  projections: ProjectionRunner;
  clock: Clock;
  ids: Ids;
  /** 'pglite' when running on the embedded default */
  database: 'pglite' | 'postgres';
  /** the official code lists (units, VATEX, currencies, countries); null when the artifacts are missing */
  codeLists: CodeLists | null;
  /** invoice-number series reservations, serialised per series within this process */
  series: SeriesReservations;
  /** companies and customers' party fields as the invoice routes look them up: rows written once, kept in memory */
  lookups: Lookups;
  /** the monthly invoice counts, group-committed per organisation and month */
  usage: UsageCounts;
  /** the Peppol network (the sandbox: a closed loop between companies of this service) */
  network: PeppolNetwork;
  /** the Financial Administration's corner 5 (the sandbox) */
  fs: FsAuthority;
  /** participant lookup for POST /tools/peppol-check */
  participants: ParticipantDirectory;
  /** the sandbox adapters with their fault switches (tests; the sandbox is the only network built) */
  sandbox: { peppol: PeppolSandbox; fs: FsSandbox };
  /** side effects: Peppol delivery, FS filing and verdicts, the sandbox's delivery statuses */
  reactors: ReactorRunner;
  /** credentials: API key lookups (cached briefly), their last use (written in batches), and the revoked sessions and clients every instance learns of at once */
  auth: { apiKeys: ApiKeyLookup; lastUsed: LastUsed; revocations: Revocations };
  /**
   * The RS256 key ring that signs and verifies access tokens (JWKS publishes its public half).
   * Loaded on first use, so CLI commands need no key; the service loads it at start (a missing
   * key outside the embedded default stops it there).
   */
  identity: { ring(): Promise<SigningKeyRing> };
  /** rate-limit buckets (in process, or in Redis with REDIS_URL so instances share them) and the failure guard (API keys, sign-in) */
  limits: { store: BucketStore; guard: InvalidCredentialGuard };
  /** the UBL validation engine (worker pool), started on first use: compiling the rules takes a while once */
  validator(): Promise<Validator>;
  close(): Promise<void>;
}

/**
 * Opens the databases the configuration names (PGlite under DATA_DIR when no DATABASE_URL),
 * the event store and the read models. `runProjections: false` is for one-shot CLI commands that
 * drive projectors themselves. `embedded`: the embedded default's database, already being opened
 * (main.ts starts it before loading the rest); it is closed with the services.
 */
export async function openServices(
  config: Config,
  options: { log?: Logger; runProjections?: boolean; runReactors?: boolean; clock?: Clock; ids?: Ids; embedded?: Promise<EmbeddedPostgres> } = {},
): Promise<Services> {
  const log = options.log ?? createLogger(config.logLevel);
  const { delivery } = config;
  const unknownRules = delivery.fsSandboxRejectRules.filter((r) => !(r in FS_SANDBOX_RULES));
  if (unknownRules.length > 0) throw new Error(`FS_SANDBOX_REJECT_RULES: unknown rule ${unknownRules.join(', ')} (known: ${Object.keys(FS_SANDBOX_RULES).join(', ')})`);
  // parsed while the database starts (the embedded one on its thread), not after it
  const loadingCodeLists = loadCodeLists(config.validationArtifactsDir).catch((error: unknown) => {
    log.warn({ err: error, dir: config.validationArtifactsDir }, 'code lists not loaded: invoices cannot be checked (set VALIDATION_ARTIFACTS_DIR)');
    return null;
  });
  let url = config.databaseUrl;
  let closeEmbedded = async () => {};
  if (!url) {
    const embedded = await (options.embedded ?? openEmbeddedDataDir(config.dataDir));
    url = embedded.connectionString;
    closeEmbedded = () => embedded.close();
  }
  const embedded = !config.databaseUrl;
  let ring: Promise<SigningKeyRing> | undefined;
  const getRing = () => (ring ??= loadSigningKeys({
    dataDir: config.dataDir, embedded, privateKeyPem: config.identity.jwtPrivateKeyPem, keyId: config.identity.jwtKeyId,
    previousPublicKeys: config.identity.jwtPreviousPublicKeys,
  }));
  // PGlite runs one transaction at a time: a few connections are plenty there.
  const pool = new pg.Pool({ connectionString: url, max: embedded ? 4 : 20 });
  const store = await createEventStore({ pool, eventstoreUrl: config.eventstoreUrl });
  const readModels = await openReadModels(url, projectors, entities, embedded ? 4 : 10);
  const projections = new ProjectionRunner(store, readModels, projectors, log);
  if (options.runProjections !== false) await projections.start();
  const codeLists = await loadingCodeLists;

  let validator: Promise<Validator> | undefined;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const getValidator = () => (validator ??= createValidator({ artifactsDir: config.validationArtifactsDir }));

  const core = { store, readModels, clock, ids };
  const now = () => clock.now();
  const peppol = sandboxPeppolNetwork(readModels, async (message) => void (await receivePeppolMessage(core, message)), now);
  const fs = await sandboxFs(readModels, { delayMs: delivery.fsSandboxDelayMs, rules: delivery.fsSandboxRejectRules as FsSandboxRule[] }, now);
  const policy = { maxAttempts: delivery.maxAttempts, retryBaseMs: delivery.retryBaseMs };
  const reactors: Reactor[] = [
    peppolDeliveryReactor({ ...core, validator: getValidator, network: peppol, policy }),
    fsFilingReactor({ ...core, fs, policy, config: delivery }),
    fsVerdictReactor({ ...core, log, fs, pollMs: Math.max(10, Math.min(500, delivery.fsSandboxDelayMs)) }),
    sandboxDeliveryStatusReactor(core, delivery.sandboxDeliveryStatusDelayMs),
  ];
  const reactorRunner = new ReactorRunner(store, readModels, reactors, log, { pollMs: 100 });
  if (options.runReactors !== false && options.runProjections !== false) await reactorRunner.start();

  const lastUsed = new LastUsed({ readModels, log });
  lastUsed.start();
  const apiKeys = new ApiKeyLookup({ readModels, clock });
  const revocations = new Revocations({ readModels, clock, apiKeys });
  // one-shot CLI commands serve no requests: they need not hear revocations
  const revocationFeed = options.runProjections !== false ? await startRevocationFeed({ url, readModels, revocations, apiKeys, log }) : null;
  const buckets = config.redisUrl ? await openRedisBuckets(config.redisUrl, config.identity.rateLimitRedisPrefix, log) : createMemoryStore();

  return {
    config,
    log,
    store,
    readModels,
    projections,
    clock,
    ids,
    database: embedded ? 'pglite' : 'postgres',
    codeLists,
    series: new SeriesReservations({ store, ids }),
    lookups: newLookups(),
    usage: usageCounts({ store, ids }),
    network: peppol,
    fs,
    participants: delivery.participantDirectory === 'smp' ? smpParticipantDirectory({ smlZone: delivery.smlZone }) : sandboxParticipantDirectory(readModels),
    sandbox: { peppol, fs },
    reactors: reactorRunner,
    validator: getValidator,
    auth: { apiKeys, lastUsed, revocations },
    identity: { ring: getRing },
    // RATE_LIMIT=off: nothing is limited, bad keys and sign-in failures included
    limits: { store: buckets, guard: config.identity.rateLimit ? invalidCredentialGuard({ store: buckets, log }) : NO_GUARD },
    async close() {
      await lastUsed.stop();
      await revocationFeed?.close();
      await buckets.close();
      await reactorRunner.stop();
      if (validator) await (await validator).close();
      await projections.stop();
      await readModels.destroy();
      await store.close();
      await endPool(pool);
      await closeEmbedded();
    },
  };
}
