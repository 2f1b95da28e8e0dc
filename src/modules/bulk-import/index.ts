// The bulk-import module's door: what other modules, the front doors and the composition root may use of it.
export type { WorkerOptions } from './worker.ts';
