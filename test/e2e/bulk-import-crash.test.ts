import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csv, importClient, type Job } from '../bulk-import/support.ts';
import { eventually } from '../support/poll.ts';
import { freePort, healthy, startService, stopService } from './support/service-process.ts';

const INVOICES = 400;

/**
 * kill -9 in the middle of an import, on the embedded default (PGlite's files in DATA_DIR): the
 * service started again on the same DATA_DIR resumes the job from its stream and finishes it,
 * with every invoice of the file created exactly once. The job is slowed (BULK_IMPORT_MAX_RATE)
 * so the kill lands while it runs.
 */
describe('bulk import survives kill -9 of the service', function () {
  this.timeout(600_000);
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;
  const env = { BULK_IMPORT_MAX_RATE: '60' };

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'svc-bulk-crash-'));
    port = await freePort();
  });
  afterEach(async () => {
    if (child) await stopService(child);
  });
  after(async () => rm(dataDir, { recursive: true, force: true }));

  it('resumes the job after a restart and creates each invoice once', async () => {
    child = startService('tsx', dataDir, port, env);
    await healthy(child, port, 300_000);
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { base_url: string; api_key: string; companies: { id: string }[] };
    const company = credentials.companies[0]!.id;
    const client = importClient(credentials.base_url, credentials.api_key);
    const buyer = 'Po páde s.r.o.';
    const header = ['invoice_ref', 'issue_date', 'due_date', 'buyer_name', 'buyer_vat_id', 'item_name', 'quantity', 'unit_price', 'vat_rate'];
    const rows = Array.from({ length: INVOICES }, (_, i) => [`K${i}`, '2026-08-03', '2026-08-17', buyer, 'SK2020000004', `Položka ${i}`, '1', '10,00', '23']);
    const sent = await client.send(company, csv([header, ...rows]));
    expect(sent.status).to.equal(202);
    const jobId = sent.body.job_id as string;

    // kill -9 once some chunks are recorded and most of the file is still to come
    const running = await eventually(() => client.status(company, jobId), (r) => r.body.rows_processed >= 100, { withinMs: 120_000, everyMs: 20, what: 'the import under way' });
    expect(running.body.status).to.equal('processing');
    const killed = new Promise((resolve) => child!.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await killed;

    child = startService('tsx', dataDir, port, env);
    await healthy(child, port, 300_000);
    const job: Job = await client.finished(company, jobId, 300_000);
    expect(job).to.include({ status: 'completed', total_rows: INVOICES, rows_processed: INVOICES, created: INVOICES, errors_total: 0 });
    const listed = await fetch(`${credentials.base_url}/companies/${company}/invoices?q=${encodeURIComponent(buyer)}&page_size=100`, { headers: { 'x-api-key': credentials.api_key } });
    const page = (await listed.json()) as { total: number };
    expect(page.total).to.equal(INVOICES);
    console.log(`      (killed at ${running.body.rows_processed as number} of ${INVOICES} rows)`);
  });
});
