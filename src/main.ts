import { ConfigRefused, loadConfig } from './platform/config.ts';
import { DataDirRefused, keepFilesPrivate } from './platform/db/data-dir.ts';
import { startEmbeddedDataDir } from './platform/db/embedded-default.ts';
import { releaseHeap, releaseWhenIdle } from './platform/idle-memory.ts';
import { SecretKeyConfigError } from './platform/secret-box.ts';

// `npm start`: the configuration, the service (src/service.ts, the composition root) and its HTTP server.
// First of all: whatever the process writes from here on (PGlite's files, keys, the pid file) is its user's alone.
keepFilesPrivate();

/** A start that cannot be safe (an unsafe DATA_DIR, a missing key, a configuration that cannot work) ends here: one sentence, exit code 1, nothing served. */
function refuseToStart(error: unknown): never {
  if (!(error instanceof DataDirRefused || error instanceof SecretKeyConfigError || error instanceof ConfigRefused)) throw error;
  console.error(error.message);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  refuseToStart(error);
}

// The embedded default's PGlite starts on its own thread now, while the rest loads (imported below, not above, for that).
// Its data directory is checked first, before anything is written or loaded.
let embedded: ReturnType<typeof startEmbeddedDataDir> | undefined;
try {
  embedded = config.databaseUrl ? undefined : startEmbeddedDataDir(config.dataDir, (line) => console.warn(line));
} catch (error) {
  refuseToStart(error);
}
const [{ createDemo, describeDemo, writeDemoCredentials }, { START }, { createApp }, { API_PREFIX }, { createHttpServer }, { openService }] = await Promise.all([
  import('./demo/bootstrap.ts'),
  import('./platform/eventstore/port.ts'),
  import('./doors/native/app.ts'),
  import('./doors/native/prefix.ts'),
  import('./doors/native/server.ts'),
  import('./service.ts'),
]);
// First start on a machine without the official rules: fetch the pinned releases, or say in one sentence what to do.
const { compileInBackground, fetchValidationArtifacts, FETCH_SCRIPT, missingValidationArtifacts, unavailableSentence } = await import('./platform/readiness/first-start.ts');
const rulesDir = config.validationArtifactsDir;
let rulesMissing = missingValidationArtifacts(rulesDir).length > 0;
if (rulesMissing) {
  console.log(`The official validation rules are not in ${rulesDir}: downloading the pinned releases (${FETCH_SCRIPT}, each file checked by SHA-256) ...`);
  rulesMissing = !(await fetchValidationArtifacts(rulesDir)) || missingValidationArtifacts(rulesDir).length > 0;
  if (rulesMissing) console.log(unavailableSentence(rulesDir));
}
const services = await openService(config, { embedded }).catch(refuseToStart);
const { log } = services;
// the signing key now, not at the first sign-in: a deployment without one must not start
await services.identity.ring().catch(async (error: unknown) => {
  log.fatal({ err: error }, 'no JWT signing key: set JWT_PRIVATE_KEY (PKCS#8 PEM) and JWT_KEY_ID');
  await services.close();
  process.exit(1);
});

await services.webhookSecrets.box().catch(async (error: unknown) => {
  log.fatal({ err: error }, 'no webhook secret key: set WEBHOOK_SECRET_KEY (32 random bytes, base64)');
  await services.close();
  process.exit(1);
});

await services.totpSecrets.box().catch(async (error: unknown) => {
  log.fatal({ err: error }, 'no TOTP secret key: set TOTP_SECRET_KEY (32 random bytes, base64)');
  await services.close();
  process.exit(1);
});

// First start of the embedded default on an empty DATA_DIR: a ready-to-use demo.
if (!config.databaseUrl && (await services.store.readAll(START, 1)).length === 0) {
  const credentials = await createDemo(services, `http://${config.host}:${config.port}${API_PREFIX}`);
  const file = await writeDemoCredentials(config.dataDir, credentials);
  console.log(`\n${describeDemo(credentials, file)}\n`);
}

const server = createHttpServer(createApp(services).callback(), config.http);
server.listen(config.port, config.host, () => {
  log.info({ url: `http://${config.host}:${config.port}${API_PREFIX}`, database: services.database, node: process.versions.node }, 'service listening');
});
// A quiet service gives back what its start and its last busy spell used (idle-memory.ts); the
// database's thread and the validation workers do the same for themselves.
releaseWhenIdle(releaseHeap);
// the rules compile now, not at the first invoice (which would wait for them); without them, quietly (it was said above)
if (rulesMissing) void services.validator().catch(() => undefined);
else void compileInBackground(() => services.validator(), services.validationStage, rulesDir, (line) => console.log(line));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping');
  server.close();
  server.closeAllConnections();
  await services.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
