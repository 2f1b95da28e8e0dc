import path from 'node:path';

/** Everything the service reads from its environment, read in one place. */
export interface Config {
  port: number;
  host: string;
  /** the hosts integrators call, named in the OpenAPI documents' servers (API_HOST_SANDBOX, API_HOST_PRODUCTION) */
  publicHosts: { sandbox: string; production: string };
  /** where the embedded default keeps PGlite's files and demo-credentials.json */
  dataDir: string;
  /** Postgres for read models (and events unless eventstoreUrl is set); unset: embedded PGlite */
  databaseUrl: string | undefined;
  /** EventStoreDB connection string; when set, events live there */
  eventstoreUrl: string | undefined;
  redisUrl: string | undefined;
  /** official UBL XSDs and Schematron (data, never copied into the repository) */
  validationArtifactsDir: string;
  logLevel: string;
  /** LOG_FORMAT: `json` always, `pretty` always, `auto` (default) pretty on a terminal and JSON otherwise */
  logFormat: 'auto' | 'json' | 'pretty';
  /**
   * UPGRADE_URL: where the refusals of a plan's limits (402 usage_limit_exceeded, 403
   * feature_not_available, 429) send the caller; default PUBLIC_BASE_URL (else http://HOST:PORT) + the plans guide, /guides/identity#plans-…
   */
  upgradeUrl: string;
  /** how long a command waits for its read models before answering anyway */
  readYourWritesTimeoutMs: number;
  /**
   * Connections each instance opens to Postgres at most, per pool (DATABASE_POOL_EVENTS,
   * DATABASE_POOL_READ_MODELS): with 3 listeners (and 4 for the limiter without Redis) they make
   * the instance's budget, so several instances fit the server's max_connections (docs/reliability.md).
   */
  databasePool: { events: number; readModels: number };
  /** SAPI-SK sends: strict validation refuses a send when a rule set cannot run (SAPI_STRICT_VALIDATION, on unless `false`/`0`) */
  sapiStrictValidation: boolean;
  /** METRICS_TOKEN: /metrics asks for it as a bearer token; unset, /metrics answers loopback peers only */
  metricsToken: string | undefined;
  http: HttpServerConfig;
  delivery: DeliveryConfig;
  identity: IdentityConfig;
  webhooks: WebhookConfig;
  lookup: LookupConfig;
  bulkImport: BulkImportConfig;
  peppol: PeppolConfig;
}

/**
 * The Peppol network our Access Point speaks (issue 38, docs/peppol.md). `sandbox` (the default)
 * needs nothing; `as4` needs our identity (a PEM pair or a PKCS#12 file) and both trust bundles.
 * Only file paths and the passphrase are read here; the files are read and checked at start
 * (src/modules/delivery/peppol/pki).
 */
export interface PeppolConfig {
  /** PEPPOL_NETWORK: `sandbox` (the embedded loop) or `as4` (a real Access Point) */
  network: 'sandbox' | 'as4';
  /** AS4_CERT + AS4_KEY (+ AS4_KEY_PASSPHRASE), or AS4_P12 + AS4_P12_PASSWORD; null in the sandbox */
  identity: PeppolIdentitySource | null;
  /**
   * PEPPOL_STAGE: which Peppol network, `test` (the default) or `production`. It picks the shipped
   * trust anchors when PEPPOL_AP_TRUST / PEPPOL_SMP_TRUST are unset, and SML_ZONE's default.
   */
  stage: PeppolStage;
  /** PEPPOL_AP_TRUST: PEM bundle of the Access Point CAs (the issuing CA and its root); unset: the shipped Peppol CAs of `stage` */
  apTrustFile: string | undefined;
  /** PEPPOL_SMP_TRUST: PEM bundle of the SMP CAs (the issuing CA and its root); unset: the shipped Peppol CAs of `stage` */
  smpTrustFile: string | undefined;
  /** PEPPOL_REVOCATION: `off`, `soft` (an unreachable responder is allowed and logged, the default) or `hard` */
  revocation: RevocationMode;
  /** POST /as4: AS4_MAX_BODY_BYTES (default 64 MiB: a 10 MB SAPI-SK payload as incompressible ciphertext, with room to spare) and AS4_BODY_TIMEOUT_MS (default 60 s) */
  receiving: { maxBodyBytes: number; bodyTimeoutMs: number };
}

export type RevocationMode = 'off' | 'soft' | 'hard';

export type PeppolStage = 'test' | 'production';

/** The SML's DNS zone of each stage: the production SML, and the SMK that Peppol's test network uses. */
export const SML_ZONE_OF_STAGE: Record<PeppolStage, string> = { production: 'edelivery.tech.ec.europa.eu', test: 'acc.edelivery.tech.ec.europa.eu' };

export type PeppolIdentitySource =
  | { kind: 'pem'; certFile: string; keyFile: string; keyPassphrase: string | undefined }
  | { kind: 'p12'; file: string; password: string };

/** FS_CORNER5 (see DeliveryConfig.fsCorner5): the real FS is reachable only over AS4. */
function fsCorner5Of(env: NodeJS.ProcessEnv): 'sandbox' | 'peppol' {
  const as4 = env.PEPPOL_NETWORK?.trim().toLowerCase() === 'as4';
  const chosen = oneOf('FS_CORNER5', env.FS_CORNER5, ['sandbox', 'peppol'] as const, as4 ? 'peppol' : 'sandbox');
  if (chosen === 'peppol' && !as4) throw new ConfigRefused('FS_CORNER5=peppol needs PEPPOL_NETWORK=as4: the sandbox network reaches no real FS');
  return chosen;
}

/** A configuration that cannot work: the process says so in one sentence and does not start (main.ts). Never carries a secret. */
export class ConfigRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigRefused';
  }
}

/** Company lookup and search (issue 19, docs/lookup.md). */
export interface LookupConfig {
  /** COMPANY_REGISTRY: `sandbox` (fixture companies and this service's own, the default) or `live` (RPO, RegisterUZ, VIES over HTTPS) */
  registry: 'sandbox' | 'live';
  /** the live sources' base URLs (a test points them at a local fake) */
  rpoUrl: string;
  registeruzUrl: string;
  viesUrl: string;
  /** how long each source may take before the answer goes on without it */
  timeoutsMs: { rpo: number; registeruz: number; vies: number };
  /** how long a complete answer is served from the cache (0: no cache); partial and not-found answers are kept shorter */
  cacheTtlMs: number;
  /** at most this many answers cached (the oldest go first) */
  cacheMaxEntries: number;
}

/** The bulk-import worker (issue 19): how hard one job may push. */
export interface BulkImportConfig {
  /** invoices of one job decided at once (BULK_IMPORT_CONCURRENCY, default 8) */
  concurrency: number;
  /** a job's pace at most, invoices a second (BULK_IMPORT_MAX_RATE, default 250; 0: no limit) */
  maxInvoicesPerSecond: number;
}

/** Webhook delivery (issue 17). */
export interface WebhookConfig {
  /** AES-256 key (base64, 32 bytes) sealing endpoint secrets; unset: generated once under DATA_DIR (embedded default only) */
  secretKey: string | undefined;
  /** multiplies every retry wait (5^n s): tests run the whole schedule in milliseconds */
  backoffScale: number;
  /** admit loopback targets (127.0.0.0/8, ::1), and only those, for local receivers; off by default */
  allowLoopbackTargets: boolean;
  /** per attempt, the whole exchange (spec: 10 s) */
  timeoutMs: number;
  /** attempts in flight per endpoint: a slow endpoint holds only its own */
  concurrencyPerEndpoint: number;
}

/**
 * How long a client may take, so a slow or stalled one cannot hold a connection (a body trickled one
 * byte at a time, headers never finished, a connection opened and left idle).
 */
export interface HttpServerConfig {
  /** the whole request, headers and body, must arrive within this, else 408 and the connection closes */
  requestTimeoutMs: number;
  /** the headers must arrive within this (at most requestTimeoutMs); also bounds a connection that sends nothing */
  headersTimeoutMs: number;
  /** an idle keep-alive connection closes after this */
  keepAliveTimeoutMs: number;
  /** requests served on one connection before it closes (0: no limit) */
  maxRequestsPerSocket: number;
}

/** Sign-in and limits. */
export interface IdentityConfig {
  /** RS256 signing key (PKCS#8 PEM); unset: generated once under DATA_DIR (embedded default only) */
  jwtPrivateKeyPem: string | undefined;
  /** its key id; unset: the key's RFC 7638 thumbprint */
  jwtKeyId: string | undefined;
  /** public keys (a JWK set, JSON) still accepted while a rotation settles */
  jwtPreviousPublicKeys: string | undefined;
  /** AES-256 key (base64, 32 bytes) sealing TOTP secrets; unset: generated once under DATA_DIR (embedded default only) */
  totpSecretKey: string | undefined;
  /** take the client address from X-Forwarded-For: set it only behind a proxy that sets that header */
  trustProxy: boolean;
  /**
   * TRUSTED_PROXIES: comma-separated addresses or CIDRs of the proxies in front. When set,
   * X-Forwarded-For is believed only from these peers (the client is the right-most address that is
   * not one of them), for the rate limit's per-IP buckets and SAPI-SK allowlists alike; any other
   * peer is the client itself.
   */
  trustedProxies: string[];
  /** the rate limiter's switch (on by default; benchmarks compare) */
  rateLimit: boolean;
  /** prefix of the bucket keys in Redis, so several deployments can share one Redis */
  rateLimitRedisPrefix: string;
}

/** The Peppol and FS legs: the sandbox network (the only one built) and how hard to retry. */
export interface DeliveryConfig {
  /** transport attempts per leg before the invoice fails */
  maxAttempts: number;
  /** delay before the first retry; each further one is 5× longer (5^n, as webhooks retry) */
  retryBaseMs: number;
  /** how long one transport attempt (a Peppol send, an FS filing or question) may take before it counts as failed */
  attemptTimeoutMs: number;
  /** how long a filed tax data document waits for FS's verdict before its leg fails (commands/invoices/delivery-retries.ts) */
  fsVerdictDeadlineMs: number;
  /** sandbox: how long our receiving side waits before it sends the MLS (the sender's copy stays sent_peppol until then) */
  sandboxDeliveryStatusDelayMs: number;
  /** sandbox: how long FS takes to decide a tax data document */
  fsSandboxDelayMs: number;
  /** sandbox: the FS rules that reject a TDD (buyer-vat-id, reject-all) */
  fsSandboxRejectRules: string[];
  /** our Peppol service provider id (SPID, scheme 0242): the TDD's reporter's representative */
  serviceProviderId: string;
  /** the Financial Administration's corner-5 participant id (scheme 0242): tax data documents are sent to it over Peppol */
  fsParticipantId: string;
  /**
   * FS_CORNER5: who answers at that participant. `sandbox`: this Access Point serves it itself, as
   * the sandbox's corner 5 (src/modules/delivery/sandbox/corner5.ts), judging each TDD and
   * answering with an MLS (the default in the sandbox, where it is the only choice); `peppol`: the
   * real FS, found through the SMP like any receiver (the default under PEPPOL_NETWORK=as4). Under
   * AS4, `sandbox` delivers this Access Point's own TDDs to it internally, and takes other Access
   * Points' over AS4 (a test or demo between Access Points)
   */
  fsCorner5: 'sandbox' | 'peppol';
  /** Peppol Reporting (EUSR, TSR) to OpenPeppol each month */
  reporting: ReportingConfig;
  /** where POST /tools/peppol-check looks: `sandbox` (our companies) or `smp` (SML + SMP) */
  participantDirectory: 'sandbox' | 'smp';
  /** the SML DNS zone for the smp directory (SML_ZONE; PEPPOL_SML_ZONE, its older name, still read) */
  smlZone: string;
  discovery: DiscoveryConfig;
}

/** Peppol Reporting: where the monthly reports go, and whether the service sends them by itself. */
export interface ReportingConfig {
  /** PEPPOL_REPORTING_RECEIVER: the participant id reports are sent to; unset: OpenPeppol's (src/modules/delivery/peppol/identifiers.ts) */
  receiver: string | undefined;
  /** PEPPOL_REPORTING_SCHEDULE=off: the reports are not built and sent by the service each month (tests; an operator sending them otherwise) */
  schedule: boolean;
}

/** Peppol discovery (issue 38, item 3): static routes, the SML, the SMP. */
export interface DiscoveryConfig {
  /** DNS_SERVER: `ip:port` (or `ip`), comma-separated for several; unset: the system's resolvers */
  dnsServers: string[] | undefined;
  /** PEPPOL_STATIC_ENDPOINTS: the static routing table's JSON file, consulted before the SML */
  staticEndpointsFile: string | undefined;
  /** PEPPOL_SMP_CACHE_S: how long an SMP's answer is kept (default 1 h) */
  smpCacheMs: number;
  /** PEPPOL_DISCOVERY_TIMEOUT_MS: per DNS query and per SMP request (default 5 s) */
  timeoutMs: number;
  /** PEPPOL_DISCOVERY_ALLOW_LOOPBACK: an SMP from DNS may be on loopback (tests only; off by default) */
  allowLoopback: boolean;
}

function discoveryConfig(env: NodeJS.ProcessEnv): DiscoveryConfig {
  const servers = (env.DNS_SERVER ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    dnsServers: servers.length > 0 ? servers : undefined,
    staticEndpointsFile: env.PEPPOL_STATIC_ENDPOINTS ? path.resolve(env.PEPPOL_STATIC_ENDPOINTS) : undefined,
    smpCacheMs: integer('PEPPOL_SMP_CACHE_S', env.PEPPOL_SMP_CACHE_S, 3600) * 1000,
    timeoutMs: positive('PEPPOL_DISCOVERY_TIMEOUT_MS', env.PEPPOL_DISCOVERY_TIMEOUT_MS, 5000),
    allowLoopback: env.PEPPOL_DISCOVERY_ALLOW_LOOPBACK === 'true' || env.PEPPOL_DISCOVERY_ALLOW_LOOPBACK === '1',
  };
}

function scale(name: string, value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${value}`);
  return n;
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const n = integer(name, value, fallback);
  if (n === 0) throw new Error(`${name} must be at least 1, got 0`);
  return n;
}

/** How much longer than AS4_BODY_TIMEOUT_MS the server waits for a whole request under as4: the door's own limit answers first, with an ebMS error. */
const AS4_REQUEST_TIMEOUT_MARGIN_MS = 5_000;

function httpServerConfig(env: NodeJS.ProcessEnv, peppol: PeppolConfig): HttpServerConfig {
  // Node's request timeout covers every route, POST /as4 included: under as4 it must outlast the
  // door's AS4_BODY_TIMEOUT_MS, or a large message on a slow link is cut off with a bare 408
  const as4Floor = peppol.network === 'as4' ? peppol.receiving.bodyTimeoutMs + AS4_REQUEST_TIMEOUT_MARGIN_MS : 0;
  const requestTimeoutMs = positive('HTTP_REQUEST_TIMEOUT_MS', env.HTTP_REQUEST_TIMEOUT_MS, Math.max(30_000, as4Floor));
  if (requestTimeoutMs < as4Floor) {
    throw new ConfigRefused(`HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must be at least AS4_BODY_TIMEOUT_MS + ${AS4_REQUEST_TIMEOUT_MARGIN_MS} (${as4Floor}) under PEPPOL_NETWORK=as4, so a slow AS4 sender is answered by the AS4 door`);
  }
  const headersTimeoutMs = positive('HTTP_HEADERS_TIMEOUT_MS', env.HTTP_HEADERS_TIMEOUT_MS, Math.min(15_000, requestTimeoutMs));
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(`HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: positive('HTTP_KEEP_ALIVE_TIMEOUT_MS', env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 5_000),
    maxRequestsPerSocket: integer('HTTP_MAX_REQUESTS_PER_SOCKET', env.HTTP_MAX_REQUESTS_PER_SOCKET, 1_000),
  };
}

function absoluteUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigRefused(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigRefused(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  return url.toString();
}

/**
 * UPGRADE_URL, else the plans guide the service serves itself, at its public address
 * (PUBLIC_BASE_URL, else where it listens): a link that answers, not a placeholder host.
 */
function upgradeUrl(env: NodeJS.ProcessEnv): string {
  if (env.UPGRADE_URL) return absoluteUrl('UPGRADE_URL', env.UPGRADE_URL);
  const base = env.PUBLIC_BASE_URL ? absoluteUrl('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL) : `http://${env.HOST || '127.0.0.1'}:${env.PORT || '8080'}/`;
  return new URL('guides/identity#plans-features-and-the-monthly-quota', base.endsWith('/') ? base : `${base}/`).toString();
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  const found = allowed.find((a) => a === value.trim().toLowerCase());
  if (found === undefined) throw new ConfigRefused(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return found;
}

function peppolIdentity(env: NodeJS.ProcessEnv): PeppolIdentitySource {
  const pem = Boolean(env.AS4_CERT || env.AS4_KEY);
  const p12 = Boolean(env.AS4_P12);
  if (pem && p12) throw new ConfigRefused('PEPPOL_NETWORK=as4: set either AS4_CERT and AS4_KEY, or AS4_P12, not both');
  if (p12) {
    // an empty password is a password (some tools export that way); an unset one is a forgotten one
    if (env.AS4_P12_PASSWORD === undefined) throw new ConfigRefused('PEPPOL_NETWORK=as4: AS4_P12 is set but AS4_P12_PASSWORD is not');
    return { kind: 'p12', file: path.resolve(env.AS4_P12 as string), password: env.AS4_P12_PASSWORD };
  }
  if (!env.AS4_CERT || !env.AS4_KEY) {
    const missing = !pem ? 'AS4_CERT and AS4_KEY (PEM files), or AS4_P12 and AS4_P12_PASSWORD' : env.AS4_CERT ? 'AS4_KEY' : 'AS4_CERT';
    throw new ConfigRefused(`PEPPOL_NETWORK=as4 needs the Access Point's certificate and key: set ${missing}`);
  }
  return { kind: 'pem', certFile: path.resolve(env.AS4_CERT), keyFile: path.resolve(env.AS4_KEY), keyPassphrase: env.AS4_KEY_PASSPHRASE || undefined };
}

function peppolConfig(env: NodeJS.ProcessEnv): PeppolConfig {
  const network = oneOf('PEPPOL_NETWORK', env.PEPPOL_NETWORK, ['sandbox', 'as4'] as const, 'sandbox');
  const revocation = oneOf('PEPPOL_REVOCATION', env.PEPPOL_REVOCATION, ['off', 'soft', 'hard'] as const, 'soft');
  const receiving = {
    maxBodyBytes: positive('AS4_MAX_BODY_BYTES', env.AS4_MAX_BODY_BYTES, 64 * 1024 * 1024),
    bodyTimeoutMs: positive('AS4_BODY_TIMEOUT_MS', env.AS4_BODY_TIMEOUT_MS, 60_000),
  };
  // the sandbox reads none of the rest: what is set there for later changes nothing
  if (network === 'sandbox') return { network, identity: null, stage: 'test', apTrustFile: undefined, smpTrustFile: undefined, revocation, receiving };
  const identity = peppolIdentity(env);
  // test by default: a new Access Point starts on Peppol's test network (OpenPeppol's testbed comes
  // before production), and production is a deliberate step taken with its own certificate
  const stage = oneOf('PEPPOL_STAGE', env.PEPPOL_STAGE, ['test', 'production'] as const, 'test');
  const file = (value: string | undefined) => (value ? path.resolve(value) : undefined);
  return { network, identity, stage, apTrustFile: file(env.PEPPOL_AP_TRUST), smpTrustFile: file(env.PEPPOL_SMP_TRUST), revocation, receiving };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const peppol = peppolConfig(env);
  // an Access Point looks its peers up in its own stage's SML; the sandbox keeps the production zone it always had
  const defaultSmlZone = peppol.network === 'as4' ? SML_ZONE_OF_STAGE[peppol.stage] : SML_ZONE_OF_STAGE.production;
  return {
    port: integer('PORT', env.PORT, 8080),
    host: env.HOST || '127.0.0.1',
    publicHosts: { sandbox: env.API_HOST_SANDBOX || 'sandbox.api.example.sk', production: env.API_HOST_PRODUCTION || 'api.example.sk' },
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    eventstoreUrl: env.EVENTSTORE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    validationArtifactsDir: path.resolve(env.VALIDATION_ARTIFACTS_DIR || '../shared/validation'),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: oneOf('LOG_FORMAT', env.LOG_FORMAT, ['auto', 'json', 'pretty'] as const, 'auto'),
    upgradeUrl: upgradeUrl(env),
    readYourWritesTimeoutMs: integer('READ_YOUR_WRITES_TIMEOUT_MS', env.READ_YOUR_WRITES_TIMEOUT_MS, 3000),
    databasePool: {
      events: positive('DATABASE_POOL_EVENTS', env.DATABASE_POOL_EVENTS, 10),
      readModels: positive('DATABASE_POOL_READ_MODELS', env.DATABASE_POOL_READ_MODELS, 8),
    },
    sapiStrictValidation: !['false', '0', 'off'].includes((env.SAPI_STRICT_VALIDATION ?? '').trim().toLowerCase()),
    metricsToken: env.METRICS_TOKEN || undefined,
    http: httpServerConfig(env, peppol),
    identity: {
      jwtPrivateKeyPem: env.JWT_PRIVATE_KEY || undefined,
      jwtKeyId: env.JWT_KEY_ID || undefined,
      jwtPreviousPublicKeys: env.JWT_PREVIOUS_PUBLIC_KEYS || undefined,
      totpSecretKey: env.TOTP_SECRET_KEY || undefined,
      trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
      trustedProxies: (env.TRUSTED_PROXIES ?? '').split(',').map((p) => p.trim()).filter(Boolean),
      rateLimit: env.RATE_LIMIT !== 'off',
      rateLimitRedisPrefix: env.RATE_LIMIT_REDIS_PREFIX || 'ratelimit:',
    },
    bulkImport: {
      concurrency: positive('BULK_IMPORT_CONCURRENCY', env.BULK_IMPORT_CONCURRENCY, 8),
      maxInvoicesPerSecond: integer('BULK_IMPORT_MAX_RATE', env.BULK_IMPORT_MAX_RATE, 250),
    },
    webhooks: {
      secretKey: env.WEBHOOK_SECRET_KEY || undefined,
      backoffScale: scale('WEBHOOK_BACKOFF_SCALE', env.WEBHOOK_BACKOFF_SCALE),
      allowLoopbackTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true' || env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
      timeoutMs: positive('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
      concurrencyPerEndpoint: positive('WEBHOOK_CONCURRENCY_PER_ENDPOINT', env.WEBHOOK_CONCURRENCY_PER_ENDPOINT, 8),
    },
    lookup: {
      registry: env.COMPANY_REGISTRY === 'live' ? 'live' : 'sandbox',
      rpoUrl: env.COMPANY_REGISTRY_RPO_URL || 'https://api.statistics.sk/rpo/v1',
      registeruzUrl: env.COMPANY_REGISTRY_REGISTERUZ_URL || 'https://www.registeruz.sk/cruz-public/api',
      viesUrl: env.COMPANY_REGISTRY_VIES_URL || 'https://ec.europa.eu/taxation_customs/vies/rest-api',
      timeoutsMs: {
        rpo: positive('COMPANY_REGISTRY_RPO_TIMEOUT_MS', env.COMPANY_REGISTRY_RPO_TIMEOUT_MS, 4_000),
        registeruz: positive('COMPANY_REGISTRY_REGISTERUZ_TIMEOUT_MS', env.COMPANY_REGISTRY_REGISTERUZ_TIMEOUT_MS, 4_000),
        vies: positive('COMPANY_REGISTRY_VIES_TIMEOUT_MS', env.COMPANY_REGISTRY_VIES_TIMEOUT_MS, 6_000),
      },
      cacheTtlMs: integer('COMPANY_LOOKUP_CACHE_TTL_S', env.COMPANY_LOOKUP_CACHE_TTL_S, 6 * 3600) * 1000,
      cacheMaxEntries: positive('COMPANY_LOOKUP_CACHE_MAX_ENTRIES', env.COMPANY_LOOKUP_CACHE_MAX_ENTRIES, 10_000),
    },
    peppol,
    delivery: {
      maxAttempts: Math.max(1, integer('DELIVERY_MAX_ATTEMPTS', env.DELIVERY_MAX_ATTEMPTS, 5)),
      retryBaseMs: integer('DELIVERY_RETRY_BASE_MS', env.DELIVERY_RETRY_BASE_MS, 5000),
      attemptTimeoutMs: positive('DELIVERY_ATTEMPT_TIMEOUT_MS', env.DELIVERY_ATTEMPT_TIMEOUT_MS, 60_000),
      fsVerdictDeadlineMs: positive('FS_VERDICT_DEADLINE_HOURS', env.FS_VERDICT_DEADLINE_HOURS, 72) * 3_600_000,
      sandboxDeliveryStatusDelayMs: integer('PEPPOL_SANDBOX_DELIVERY_DELAY_MS', env.PEPPOL_SANDBOX_DELIVERY_DELAY_MS, 1000),
      fsSandboxDelayMs: integer('FS_SANDBOX_DELAY_MS', env.FS_SANDBOX_DELAY_MS, 2000),
      fsSandboxRejectRules: (env.FS_SANDBOX_REJECT_RULES ?? '').split(',').map((r) => r.trim()).filter(Boolean),
      serviceProviderId: env.PEPPOL_SERVICE_PROVIDER_ID || 'PSK000000',
      fsParticipantId: env.FS_PARTICIPANT_ID || '0242:001180',
      fsCorner5: fsCorner5Of(env),
      reporting: {
        receiver: env.PEPPOL_REPORTING_RECEIVER?.trim() || undefined,
        schedule: oneOf('PEPPOL_REPORTING_SCHEDULE', env.PEPPOL_REPORTING_SCHEDULE, ['on', 'off'] as const, 'on') === 'on',
      },
      // a real Access Point checks participants where it sends: Peppol discovery
      participantDirectory: oneOf('PEPPOL_DIRECTORY', env.PEPPOL_DIRECTORY, ['sandbox', 'smp'] as const, env.PEPPOL_NETWORK?.trim().toLowerCase() === 'as4' ? 'smp' : 'sandbox'),
      smlZone: env.SML_ZONE || env.PEPPOL_SML_ZONE || defaultSmlZone,
      discovery: discoveryConfig(env),
    },
  };
}
