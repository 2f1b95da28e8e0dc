import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { InvoiceGroup } from '../../commands/bulk-import/groups.ts';
import { usageMonth } from '../../commands/limits/usage.ts';
import { bulkImportStream } from '../../events/bulk-import.ts';
import { usageStream } from '../../events/usage.ts';
import { runImportJob } from '../../src/modules/bulk-import/worker.ts';
import { SeriesReservations } from '../../src/modules/invoices/index.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csv, importClient } from './support.ts';

class Crash extends Error {}

/**
 * A job interrupted anywhere (here: in the middle of a chunk, after some of its invoices were
 * written and before the chunk was recorded) and run again from its stream, as the reactor does
 * after a restart: every invoice exists once, the counts are right, and the quota counted each once.
 * The worker runs by hand (the service's reactors are off), so the crash falls where the test says.
 */
describe('bulk import: a job interrupted mid-chunk resumes without duplicates', function () {
  this.timeout(240_000);
  let svc: TestService;
  let company: string;
  const year = String(new Date().getUTCFullYear());

  before(async () => {
    svc = await startTestService({ runReactors: false });
    company = svc.demo.companies[0]!.id;
  });
  after(async () => svc?.close());

  it('answers processing with no total and no errors until the worker has finished, then resumes past a crash', async () => {
    const client = importClient(svc.api, svc.demo.api_key);
    const buyer = `Resume ${randomUUID().slice(0, 8)}`;
    const header = ['invoice_ref', 'issue_date', 'due_date', 'buyer_name', 'buyer_vat_id', 'item_name', 'quantity', 'unit_price', 'vat_rate'];
    // 30 invoices of 2 lines; R7 is refused (a bad price), so 29 are created
    const rows = Array.from({ length: 30 }, (_, i) => [
      [`R${i}`, `${year}-07-01`, `${year}-07-15`, buyer, 'SK2020000004', 'prvý', '1', i === 7 ? 'x' : '10', '23'],
      [`R${i}`, '', '', '', '', 'druhý', '2', '5,5', '23'],
    ]).flat();
    const sent = await client.send(company, csv([header, ...rows]));
    expect(sent.status).to.equal(202);
    const jobId = sent.body.job_id as string;
    const waiting = await client.status(company, jobId);
    expect(waiting.body).to.include({ status: 'processing', total_rows: null, rows_processed: 0, created: 0, errors_total: 0 });
    expect(waiting.body.errors).to.deep.equal([]);

    // first run: chunks of 10, 4 at once; crash once 15 groups are decided (the middle of the second chunk)
    let decided = 0;
    const crashing = { concurrency: 4, chunk: 10, afterGroup: (_g: InvoiceGroup) => { if (++decided >= 15) throw new Crash('kill -9'); } };
    let crashed: unknown;
    await runImportJob(svc.services, jobId, new AbortController().signal, crashing).catch((error: unknown) => (crashed = error));
    expect(crashed).to.be.instanceOf(Crash);
    const events = await svc.services.store.readStream(bulkImportStream(jobId));
    expect(events.map((e) => e.type)).to.deep.equal(['BulkImportRequested', 'BulkImportFileStored', 'BulkImportProgressed']);
    const partial = await eventually(() => client.status(company, jobId), (r) => r.body.rows_processed === 20, { what: 'the first chunk shown' });
    expect(partial.body).to.include({ status: 'processing', total_rows: null, created: 9 });
    expect(partial.body.errors).to.deep.equal([]); // the first chunk's error waits for the end

    // the second run resumes at group 10: groups 10-14 of the unrecorded chunk exist already and are not made again
    const seen: string[] = [];
    await runImportJob(svc.services, jobId, new AbortController().signal, { concurrency: 4, chunk: 10, afterGroup: (g) => void seen.push(g.ref ?? '') });
    expect(seen.sort()).to.deep.equal(Array.from({ length: 20 }, (_, i) => `R${i + 10}`).sort());
    const job = await client.finished(company, jobId);
    expect(job).to.include({ status: 'completed', total_rows: 60, rows_processed: 60, created: 29, errors_total: 1 });
    expect(job.errors.map((e) => [e.row, e.column])).to.deep.equal([[16, 'unit_price']]);

    // the invoice list is its own read model: it catches up with the job's after a moment
    const listed = (await eventually(() => svc.call('GET', `/companies/${company}/invoices?q=${encodeURIComponent(buyer)}&page_size=100`),
      (r) => r.body.total === 29, { what: 'the 29 invoices listed', everyMs: 500 })).body;
    const numbers = new Set((listed.items as { invoice_number: string }[]).map((i) => i.invoice_number));
    expect(numbers.size).to.equal(29);
    // the status names each created invoice once, with its two rows and the number it got, resumed chunk included
    expect(job.invoices.map((i) => [i.invoice_ref, i.rows])).to.deep.equal(Array.from({ length: 30 }, (_, i) => i).filter((i) => i !== 7).map((i) => [`R${i}`, [2 + 2 * i, 3 + 2 * i]]));
    const byId = new Map((listed.items as { id: string; invoice_number: string }[]).map((i) => [i.id, i.invoice_number]));
    expect(job.invoices.map((i) => i.invoice_number)).to.deep.equal(job.invoices.map((i) => byId.get(i.invoice_id)));
    // each invoice counted once against the quota, whatever the runs
    const counted = (await svc.services.store.readStream(usageStream(svc.demo.organisation_id, usageMonth(new Date()))))
      .filter((e) => (listed.items as { id: string }[]).some((i) => i.id === e.data['invoice_id']));
    expect(counted).to.have.length(29);

    // a third run (a repeated reaction) changes nothing
    await runImportJob(svc.services, jobId, new AbortController().signal);
    expect((await svc.services.store.readStream(bulkImportStream(jobId))).at(-1)?.type).to.equal('BulkImportCompleted');
  });
});

describe('bulk import: an invoice that fails for good does not hold the job', function () {
  this.timeout(240_000);
  let svc: TestService;
  before(async () => (svc = await startTestService({ runReactors: false })));
  after(async () => svc?.close());

  it('gives that invoice an internal_error row error and completes the job, instead of leaving it processing', async () => {
    const company = svc.demo.companies[0]!.id;
    const client = importClient(svc.api, svc.demo.api_key);
    const year = String(new Date().getUTCFullYear());
    const header = ['invoice_ref', 'issue_date', 'due_date', 'buyer_name', 'buyer_vat_id', 'item_name', 'quantity', 'unit_price', 'vat_rate'];
    const rows = ['A', 'BROKEN', 'C'].map((ref) => [ref, `${year}-07-01`, `${year}-07-15`, `${ref}-buyer`, 'SK2020000004', 'položka', '1', '10', '23']);
    const sent = await client.send(company, csv([header, ...rows]));
    expect(sent.status).to.equal(202);
    // a write path with a bug for one invoice: every retry would fail alike (not a database outage)
    const store = svc.services.store;
    const bug = (events: readonly { data: unknown }[]) => {
      if (events.some((e) => JSON.stringify(e.data).includes('BROKEN-buyer'))) throw new Error('a bug in the write path');
    };
    const sabotaged = Object.assign(Object.create(Object.getPrototypeOf(store) as object) as typeof store, store, {
      append: (id: string, events: Parameters<typeof store.append>[1], expected: Parameters<typeof store.append>[2]) => (bug(events), store.append(id, events, expected)),
      appendToStreams: (writes: Parameters<typeof store.appendToStreams>[0]) => (bug(writes.flatMap((w) => w.events)), store.appendToStreams(writes)),
      appendToNewStreams: (streams: Parameters<typeof store.appendToNewStreams>[0]) => (bug(streams.flatMap((s) => s.events)), store.appendToNewStreams(streams)),
    });
    // the series writes each numbered invoice with its reservation: it writes through the sabotaged store too
    await runImportJob({ ...svc.services, store: sabotaged, series: new SeriesReservations({ store: sabotaged, ids: svc.services.ids }) }, sent.body.job_id as string, new AbortController().signal);
    const job = await client.finished(company, sent.body.job_id as string);
    expect(job).to.include({ status: 'completed', created: 2, errors_total: 1 });
    expect(job.errors).to.have.length(1);
    expect(job.errors[0]).to.include({ row: 3, column: null });
    expect(job.errors[0]!.message).to.match(/^internal_error/);
  });
});
