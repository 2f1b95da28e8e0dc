import { loadConfig } from './config.ts';
import { createDemo, describeDemo, writeDemoCredentials } from './demo/bootstrap.ts';
import { START } from './eventstore/port.ts';
import { createApp } from './http/app.ts';
import { API_PREFIX } from './http/prefix.ts';
import { createHttpServer } from './http/server.ts';
import { openService } from './service.ts';

// `npm start`: the configuration, the service (src/service.ts, the composition root) and its HTTP server.
const config = loadConfig();
const services = await openService(config);
const { log } = services;
// the signing key now, not at the first sign-in: a deployment without one must not start
await services.identity.ring().catch(async (error: unknown) => {
  log.fatal({ err: error }, 'no JWT signing key: set JWT_PRIVATE_KEY (PKCS#8 PEM) and JWT_KEY_ID');
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
  log.info({ url: `http://${config.host}:${config.port}${API_PREFIX}`, database: services.database }, 'service listening');
});

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
