// Worker thread of `npm run bench -- validation`: registers tsx (the main thread's loader does not reach
// worker threads on Node 20), then runs the single-thread measurements of bench/validation-stages.ts with
// the resource limits of the service's validation workers.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runMeasurement } = await import('./validation-stages.ts');
parentPort.postMessage(await runMeasurement(workerData));
