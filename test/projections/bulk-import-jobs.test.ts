import { readFileSync } from 'node:fs';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { bulkImportJobs } from '../../projections/bulk-import-jobs/projector.ts';
import { inStream, projectorSpec } from '../support/projector-given.ts';

/** The stored fixtures (test/fixtures/events) of a bulk-import job, as the service wrote them. */
function fixture(type: string): DomainEvent<string, { job_id: string } & Record<string, unknown>> {
  const f = JSON.parse(readFileSync(new URL(`../fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: { job_id: string } };
  return { type: f.type, data: f.data };
}
const requested = fixture('BulkImportRequested');
const progressed = fixture('BulkImportProgressed');
const JOB = `bulk_import-${requested.data.job_id}`;
const given = projectorSpec(bulkImportJobs);

describe('projection: bulk-import-jobs, the invoices a job created', function () {
  this.timeout(120_000);

  it('lists each created invoice of a chunk with its rows, ref and number, by first row', () =>
    given(inStream(JOB, requested, {
      ...progressed,
      data: {
        ...progressed.data, job_id: requested.data.job_id, invoice_ids: ['00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000a'],
        invoices: [
          { rows: [5, 6], invoice_ref: 'B', invoice_id: '00000000-0000-4000-8000-00000000000b', invoice_number: '2026000002' },
          { rows: [2, 3, 4], invoice_ref: 'A', invoice_id: '00000000-0000-4000-8000-00000000000a', invoice_number: '2026000001' },
        ],
      },
    })).then(
      'SELECT invoice_ref, invoice_number, rows::text, first_row FROM bulk_import_job_invoices ORDER BY first_row',
      [{ invoice_ref: 'A', invoice_number: '2026000001', rows: '[2, 3, 4]', first_row: 2 }, { invoice_ref: 'B', invoice_number: '2026000002', rows: '[5, 6]', first_row: 5 }],
    ));

  it('an event written before the field existed (invoice_ids only) moves the job and lists nothing', () =>
    given(inStream(JOB, requested, { ...progressed, data: { ...progressed.data, job_id: requested.data.job_id } }))
      .then('SELECT (SELECT created FROM bulk_import_jobs) AS created, (SELECT count(*)::int FROM bulk_import_job_invoices) AS listed', [{ created: 1, listed: 0 }]));
});
