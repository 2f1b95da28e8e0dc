// Plain-JS entry for the embedded-database thread when the service runs from source (tsx: tests,
// the CLI): on Node 20 the main thread's tsx loader does not reach worker threads, so register it
// here first (as src/platform/validation/worker-entry.mjs does). The compiled build loads embedded-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./embedded-worker.ts');
