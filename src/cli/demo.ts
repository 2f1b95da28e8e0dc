import { loadConfig } from '../platform/config.ts';
import { createDemo, describeDemo, writeDemoCredentials } from '../demo/bootstrap.ts';
import { API_PREFIX } from '../doors/native/prefix.ts';
import { openService } from '../service.ts';

/**
 * `demo`: creates the demo organisations, companies and keys in the configured database
 * (DATABASE_URL, or the embedded DATA_DIR when the service is not running) and writes
 * DATA_DIR/demo-credentials.json. Each run creates a new, independent demo.
 */
export async function run(): Promise<number> {
  const config = loadConfig();
  const services = await openService(config);
  try {
    const credentials = await createDemo(services, `http://${config.host}:${config.port}${API_PREFIX}`);
    const file = await writeDemoCredentials(config.dataDir, credentials);
    console.log(describeDemo(credentials, file));
    return 0;
  } finally {
    await services.close();
  }
}
