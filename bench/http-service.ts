import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { loadConfig, type Config } from '../src/platform/config.ts';
import { createDemo } from '../src/demo/bootstrap.ts';
import { createApp } from '../src/doors/native/app.ts';
import { openService, type Service } from '../src/service.ts';

export interface BenchService {
  services: Service;
  /** the API's base URL, e.g. http://127.0.0.1:PORT/api/v1 */
  api: string;
  demo: Awaited<ReturnType<typeof createDemo>>;
  close(): Promise<void>;
}

/**
 * The service over HTTP on `databaseUrl`, with the demo organisation, as the HTTP benches load it:
 * the configuration's defaults (but for where the official validation artifacts are), without
 * the rate limiter, which would refuse most of 16 clients' requests from one key (its cost is
 * what `bench auth` measures). RYW_MS sets the read-your-writes wait; BENCH_REACTORS=0 runs none.
 */
export async function startBenchService(databaseUrl: string, configure: (config: Config) => Config = (c) => c): Promise<BenchService> {
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  const identity = { ...defaults.identity, rateLimit: false };
  const services = await openService(
    configure({ ...defaults, identity, databaseUrl, readYourWritesTimeoutMs: Number(process.env.RYW_MS ?? 3000) }),
    { log: pino({ level: 'silent' }), runReactors: process.env.BENCH_REACTORS !== '0' },
  );
  const server = createServer(createApp(services).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const close = async () => {
    server.closeAllConnections();
    server.close();
    await services.close();
  };
  try {
    return { services, api, demo: await createDemo(services, api), close };
  } catch (error) {
    await close();
    throw error;
  }
}
