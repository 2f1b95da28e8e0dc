import type { BulkImportRequested } from '../../../events/bulk-import.ts';
import { defineReactor, type Reactor } from '../../platform/reactors/reactor.ts';
import { runImportJob, type WorkerDeps, type WorkerOptions } from './worker.ts';

/**
 * The bulk-import worker: a reaction per requested job. The runner's checkpoint passes a job only
 * once its reaction returned, so a job under way at a crash (or a stop) is reacted to again on the
 * next start, and runImportJob resumes it from its stream. Two jobs run at once; each decides
 * several invoices at once, at a bounded pace (WorkerOptions).
 */
export function bulkImportReactor(deps: WorkerDeps, options: WorkerOptions): Reactor {
  return defineReactor<BulkImportRequested>({
    name: 'bulk-import',
    handles: ['BulkImportRequested'],
    concurrency: 2,
    react: (event, signal) => runImportJob(deps, event.data.job_id, signal, options),
  });
}
