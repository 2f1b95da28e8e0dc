import type { BulkImportCreatedInvoice, BulkImportEvent, BulkImportRequested, BulkImportRowError } from '../../events/bulk-import.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

/**
 * A bulk-import job's stream. It is `processing` from the request until the worker records it
 * `completed` (every invoice group decided: created, or refused with row errors) or `failed` (the
 * file is unusable as a whole, and nothing was created). Progress is recorded per chunk of
 * groups, so a job resumed after a crash goes on from the first group not recorded; the groups of
 * an unrecorded chunk are decided again, and their invoices' ids (a function of the job and the
 * invoice_ref) keep one that was already created from being created twice.
 */
export type BulkImportCommand =
  | {
      type: 'RequestImport';
      request: BulkImportRequested['data'];
      /** the file decoded, or null when it could not be: then `unreadable` says why and the job fails at once */
      text: string | null;
      unreadable?: BulkImportRowError;
    }
  | {
      type: 'RecordProgress'; job_id: string; next_group: number; rows: number; created: number; invoice_ids: string[];
      /** the created invoices with their rows, ref and number (the status lists them) */
      invoices?: BulkImportCreatedInvoice[];
      errors: BulkImportRowError[]; at: string;
    }
  | { type: 'CompleteImport'; job_id: string; total_rows: number; at: string }
  | { type: 'FailImport'; job_id: string; total_rows: number; errors: BulkImportRowError[]; at: string };

type BulkImportStatus = 'processing' | 'completed' | 'failed';

type BulkImportState =
  | { status: 'none' }
  | {
      status: BulkImportStatus;
      request: BulkImportRequested['data'];
      /** the file's text; null for a job that failed on arrival */
      text: string | null;
      next_group: number;
      rows_processed: number;
      created: number;
    };

export const bulkImportDecider: Decider<BulkImportCommand, BulkImportEvent, BulkImportState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    if (command.type === 'RequestImport') {
      if (state.status !== 'none') throw new DomainError('bulk_import_job_exists', `job ${command.request.job_id} exists`);
      const { request } = command;
      if (command.text === null) {
        const error = command.unreadable ?? { row: 1, column: null, message: 'the file cannot be read' };
        return [
          { type: 'BulkImportRequested', data: request },
          { type: 'BulkImportFailed', data: { job_id: request.job_id, total_rows: 0, errors: [error], failed_at: request.requested_at } },
        ];
      }
      return [
        { type: 'BulkImportRequested', data: request },
        { type: 'BulkImportFileStored', data: { job_id: request.job_id, text: command.text } },
      ];
    }
    // the worker's records: a repeat (a resumed job recording what it had recorded) decides nothing
    if (state.status !== 'processing') return [];
    switch (command.type) {
      case 'RecordProgress':
        if (command.next_group <= state.next_group) return [];
        return [{
          type: 'BulkImportProgressed',
          data: {
            job_id: command.job_id, next_group: command.next_group, rows_processed: state.rows_processed + command.rows,
            created: state.created + command.created, errors: command.errors, invoice_ids: command.invoice_ids,
            ...(command.invoices ? { invoices: command.invoices } : {}), at: command.at,
          },
        }];
      case 'CompleteImport':
        return [{
          type: 'BulkImportCompleted',
          data: { job_id: command.job_id, total_rows: command.total_rows, created: state.created, rows_processed: state.rows_processed, completed_at: command.at },
        }];
      case 'FailImport':
        return [{ type: 'BulkImportFailed', data: { job_id: command.job_id, total_rows: command.total_rows, errors: command.errors, failed_at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'BulkImportRequested':
        return { status: 'processing', request: event.data, text: null, next_group: 0, rows_processed: 0, created: 0 };
      case 'BulkImportFileStored':
        return state.status === 'none' ? state : { ...state, text: event.data.text };
      case 'BulkImportProgressed':
        return state.status === 'none' ? state : { ...state, next_group: event.data.next_group, rows_processed: event.data.rows_processed, created: event.data.created };
      case 'BulkImportCompleted':
        return state.status === 'none' ? state : { ...state, status: 'completed' };
      case 'BulkImportFailed':
        return state.status === 'none' ? state : { ...state, status: 'failed' };
    }
  },
};
