import path from 'node:path';

/** Everything the service reads from its environment, read in one place. */
export interface Config {
  port: number;
  host: string;
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
  /** how long a command waits for its read models before answering anyway */
  readYourWritesTimeoutMs: number;
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer('PORT', env.PORT, 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    eventstoreUrl: env.EVENTSTORE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    validationArtifactsDir: path.resolve(env.VALIDATION_ARTIFACTS_DIR || '../shared/validation'),
    logLevel: env.LOG_LEVEL || 'info',
    readYourWritesTimeoutMs: integer('READ_YOUR_WRITES_TIMEOUT_MS', env.READ_YOUR_WRITES_TIMEOUT_MS, 3000),
  };
}
