import { setImmediate } from 'node:timers/promises';
import { RowGrouper, type InvoiceGroup } from '../../../commands/bulk-import/groups.ts';
import { readHeader } from '../../../commands/bulk-import/header.ts';
import { bulkImportDecider, type BulkImportCommand } from '../../../commands/bulk-import/job.ts';
import type { CodeLists } from '../../../commands/invoices/code-lists.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { bulkImportStream, type BulkImportRowError } from '../../../events/bulk-import.ts';
import { findCompany } from '../../../projections/tenancy/queries.ts';
import { systemMetadata } from '../invoices/index.ts';
import type { BulkImportConfig } from '../../platform/config.ts';
import type { Core } from '../../platform/core.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { readCsv } from './csv-reader.ts';
import { decideGroup, type GroupDeps, type GroupOutcome } from './invoice-group.ts';

export interface WorkerOptions {
  /** invoices decided at once within a job (their appends share group commits) */
  concurrency: number;
  /** invoice groups per recorded progress: what a crash makes the job decide again */
  chunk: number;
  /**
   * how long a chunk waits for the invoice register to show its invoices before the next starts.
   * Every other client's create waits for the register to show its own invoice (read-your-writes),
   * so an import running ahead of the register would make their answers wait behind its backlog.
   */
  registerWaitMs?: number;
  /**
   * a job's pace at most, in invoices a second: an import is a batch, and at full speed it would
   * take the CPU other clients' requests need (on two cores a create waited 0.3-0.6 s meanwhile)
   */
  maxInvoicesPerSecond?: number;
  /** tests: called after each group is decided, before its chunk is recorded (a crash there is what resume must survive) */
  afterGroup?: (group: InvoiceGroup, outcome: GroupOutcome) => void | Promise<void>;
}

/** records read in between two yields to the event loop */
const YIELD_EVERY = 500;

/** The worker as configured (config.bulkImport): chunks of 50 invoices, each waiting for the register to show it. */
export function workerOptions(config: BulkImportConfig): WorkerOptions {
  return { concurrency: config.concurrency, chunk: 50, registerWaitMs: 10_000, maxInvoicesPerSecond: config.maxInvoicesPerSecond };
}

const DEFAULT_WORKER_OPTIONS: WorkerOptions = { concurrency: 8, chunk: 50 };

/** What the worker is given: the invoice path's dependencies, the code lists possibly not loaded. */
export type WorkerDeps = Omit<GroupDeps, 'codeLists'> & { codeLists: CodeLists | null } & Pick<Core, 'projections'>;

export function codeListsOf(deps: { codeLists: CodeLists | null }): CodeLists {
  if (!deps.codeLists) throw new DomainError('code_lists_unavailable', 'the official code lists are not loaded (VALIDATION_ARTIFACTS_DIR); invoices cannot be checked');
  return deps.codeLists;
}

class JobStopped extends Error {
  constructor() {
    super('the bulk-import worker stopped; the job resumes on the next start');
    this.name = 'JobStopped';
  }
}

/**
 * Runs `work` over `items` with at most `limit` at once; results in the order of `items`. After a
 * failure no item is started, and the failure is thrown once the items under way have settled:
 * nothing of a failed chunk goes on behind the caller's back.
 */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}

/**
 * Runs (or resumes) one job: reads its stream, parses the file, checks the header, groups the rows
 * into invoices and decides them chunk by chunk from the first group not yet recorded, then
 * records the job completed. A file unusable as a whole records the job failed before anything is
 * created. A finished job is left alone, so a repeated reaction does nothing.
 */
export async function runImportJob(workerDeps: WorkerDeps, jobId: string, signal: AbortSignal, options: WorkerOptions = DEFAULT_WORKER_OPTIONS): Promise<void> {
  // without the code lists no invoice can be checked: the reaction fails and is retried (the enqueue refuses with 503 meanwhile)
  const deps: GroupDeps = { ...workerDeps, codeLists: codeListsOf(workerDeps) };
  const stream = bulkImportStream(jobId);
  const { state } = await readAndFold(deps.store, stream, bulkImportDecider);
  if (state.status !== 'processing' || state.text === null) return;
  const metadata = systemMetadata('bulk-import', jobId);
  const record = (command: BulkImportCommand) =>
    handleCommand(deps, stream, bulkImportDecider, command, { metadata, expected: { retry: { onVersionConflict: 3 } } });
  const at = () => deps.clock.now().toISOString();
  const fail = (errors: BulkImportRowError[], totalRows: number) => record({ type: 'FailImport', job_id: jobId, total_rows: totalRows, errors, at: at() });

  const read = await readCsv(state.text);
  if ('errors' in read) return void (await fail(read.errors, read.dataRows));
  const [first, ...data] = read.records;
  const header = readHeader(first!);
  if ('errors' in header) return void (await fail(header.errors, data.filter((r) => r.cells.some((c) => c.trim() !== '')).length));
  const grouper = new RowGrouper(jobId, header.header);
  for (let i = 0; i < data.length; i++) {
    grouper.add(data[i]!);
    // other requests go on while a large file is read in
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
  }
  const dataRows = grouper.dataRows;

  const { request } = state;
  const company = await findCompany(deps.readModels, request.organisation_id, request.company_id);
  if (!company) return void (await fail([{ row: 1, column: null, message: 'the company no longer exists' }], dataRows));
  const actor: Actor = { ...request.requested_by, organisationId: request.organisation_id };

  let next = state.next_group;
  let lookFirst = true;
  const started = { at: performance.now(), group: next };
  while (next < grouper.size) {
    if (signal.aborted) throw new JobStopped();
    const chunk = Array.from({ length: Math.min(options.chunk, grouper.size - next) }, (_, i) => grouper.group(next + i));
    const context = { actor, company, jobId, lookFirst };
    const outcomes = await mapLimit(chunk, options.concurrency, async (group) => {
      const outcome = await decideGroup(deps, context, group);
      await options.afterGroup?.(group, outcome);
      return outcome;
    });
    next += chunk.length;
    lookFirst = false;
    const positions = outcomes.flatMap((o) => ('position' in o && o.position !== null ? [o.position] : []));
    const last = positions.reduce<string | null>((max, p) => (max === null || p > max ? p : max), null);
    if (last !== null && options.registerWaitMs) await workerDeps.projections.caughtUp(last, options.registerWaitMs, ['invoices']);
    if (options.maxInvoicesPerSecond) {
      const due = started.at + ((next - started.group) * 1000) / options.maxInvoicesPerSecond;
      const ahead = due - performance.now();
      if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
    }
    await record({
      type: 'RecordProgress', job_id: jobId, next_group: next, rows: chunk.reduce((n, g) => n + g.rows.length, 0),
      created: outcomes.filter((o) => 'created' in o).length,
      invoice_ids: outcomes.flatMap((o) => ('created' in o ? [o.created] : [])),
      // a created group always has its ref (a row without one is refused)
      invoices: outcomes.flatMap((o, i) => ('created' in o ? [{ rows: chunk[i]!.rows, invoice_ref: chunk[i]!.ref ?? '', invoice_id: o.created, invoice_number: o.invoice_number }] : [])),
      errors: outcomes.flatMap((o) => ('errors' in o ? o.errors : [])),
      at: at(),
    });
  }
  await record({ type: 'CompleteImport', job_id: jobId, total_rows: dataRows, at: at() });
}
