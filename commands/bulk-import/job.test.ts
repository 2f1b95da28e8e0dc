import type { BulkImportEvent } from '../../events/bulk-import.ts';
import { specFor } from '../shared/given.ts';
import { bulkImportDecider, type BulkImportCommand } from './job.ts';

const given = specFor(bulkImportDecider);
const at = '2026-11-24T10:00:00.000Z';
const request = {
  job_id: 'j1', organisation_id: 'o1', company_id: 'c1', requested_by: { type: 'api_key' as const, id: 'k1', role: 'admin' as const },
  file_name: null, size_bytes: 3, sha256: 'ab', requested_at: at,
};
const requested: BulkImportEvent = { type: 'BulkImportRequested', data: request };
const stored: BulkImportEvent = { type: 'BulkImportFileStored', data: { job_id: 'j1', text: 'a;b' } };
const progress = (next: number, rows: number, created: number): BulkImportCommand => ({ type: 'RecordProgress', job_id: 'j1', next_group: next, rows, created, invoice_ids: [], errors: [], at });
const progressed = (next: number, rowsSoFar: number, createdSoFar: number): BulkImportEvent => ({
  type: 'BulkImportProgressed', data: { job_id: 'j1', next_group: next, rows_processed: rowsSoFar, created: createdSoFar, errors: [], invoice_ids: [], at },
});
const complete: BulkImportCommand = { type: 'CompleteImport', job_id: 'j1', total_rows: 7, at };
const completed: BulkImportEvent = { type: 'BulkImportCompleted', data: { job_id: 'j1', total_rows: 7, created: 3, rows_processed: 7, completed_at: at } };

describe('a bulk-import job', () => {
  it('starts processing with its file in one append; a file that could not be decoded fails at once', () => {
    given([]).when({ type: 'RequestImport', request, text: 'a;b' }).then([requested, stored]);
    const unreadable = { row: 2, column: null, message: 'not UTF-8' };
    given([]).when({ type: 'RequestImport', request, text: null, unreadable })
      .then([requested, { type: 'BulkImportFailed', data: { job_id: 'j1', total_rows: 0, errors: [unreadable], failed_at: at } }]);
    given([requested, stored]).when({ type: 'RequestImport', request, text: 'a;b' }).thenThrows('bulk_import_job_exists');
  });

  it('records progress as running totals; a chunk recorded again (a resumed job) decides nothing', () => {
    given([requested, stored]).when(progress(2, 4, 1)).then([progressed(2, 4, 1)]);
    given([requested, stored, progressed(2, 4, 1)]).when(progress(4, 3, 2)).then([progressed(4, 7, 3)]);
    given([requested, stored, progressed(2, 4, 1)]).when(progress(2, 4, 1)).thenNothingHappened();
  });

  it('completes with what it recorded, once; a finished job records nothing more', () => {
    given([requested, stored, progressed(2, 4, 1), progressed(4, 7, 3)]).when(complete).then([completed]);
    given([requested, stored, completed]).when(complete).thenNothingHappened();
    given([requested, stored, completed]).when(progress(9, 1, 1)).thenNothingHappened();
    given([requested, stored, completed]).when({ type: 'FailImport', job_id: 'j1', total_rows: 0, errors: [], at }).thenNothingHappened();
  });
});
