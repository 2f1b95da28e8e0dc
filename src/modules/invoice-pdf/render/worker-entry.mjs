// Plain-JS entry for piscina workers when the service runs from source (tsx: tests, the CLI): on
// Node 20 the tsx loader of the main thread does not reach worker threads, so register it here
// before loading the TypeScript worker. The compiled build (dist/, `npm start`) loads worker.js.
import { register } from 'tsx/esm/api';

register();
const { default: handle } = await import('./worker.ts');
export default handle;
