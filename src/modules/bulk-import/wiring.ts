import { bulkImportJobs } from '../../../projections/bulk-import-jobs/projector.ts';
import { bulkImportReactor } from './reactor.ts';
import { workerOptions, type WorkerDeps, type WorkerOptions } from './worker.ts';
import { bulkImportRoutes, type BulkImportRouteDeps } from './routes.ts';
import type { Module } from '../module.ts';

type BulkImportDeps = BulkImportRouteDeps & WorkerDeps & { bulkImport?: WorkerOptions };

/** Bulk CSV import (issue 19): the enqueue, status and template routes, the jobs read model, and the worker that creates the invoices. */
export function bulkImportModule(deps: BulkImportDeps): Module {
  return {
    routes: bulkImportRoutes(deps),
    projectors: [bulkImportJobs],
    reactors: [bulkImportReactor(deps, deps.bulkImport ?? workerOptions(deps.config.bulkImport))],
  };
}
