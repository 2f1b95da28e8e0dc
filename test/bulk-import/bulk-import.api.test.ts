import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { usageMonth } from '../../commands/limits/usage.ts';
import { usageStream } from '../../events/usage.ts';
import { countInvoice } from '../../src/modules/usage/usage.ts';
import { systemMetadata } from '../../src/modules/invoices/invoice-commands.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csv, importClient } from './support.ts';

const HEADER = ['invoice_ref', 'issue_date', 'due_date', 'buyer_name', 'buyer_vat_id', 'buyer_city', 'note', 'item_name', 'quantity', 'unit_code', 'unit_price', 'vat_rate'];

describe('bulk CSV import over HTTP', function () {
  this.timeout(240_000);
  let svc: TestService;
  let company: string;
  let client: ReturnType<typeof importClient>;
  const year = String(new Date().getUTCFullYear());

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    client = importClient(svc.api, svc.demo.api_key);
  });
  after(async () => svc?.close());

  const invoicesOf = async (ids: string[]) => Promise.all(ids.map(async (id) => (await svc.call('GET', `/companies/${company}/invoices/${id}`)).body));
  const listed = async (q: string) => (await svc.call('GET', `/companies/${company}/invoices?q=${encodeURIComponent(q)}&page_size=100`)).body.items as { id: string; buyer_name: string }[];

  it('reads a Slovak Excel file: BOM, ; between cells, decimal comma, D.M.YYYY dates, headers in any case, a quoted note with line breaks', async () => {
    const buyer = `Odberateľ ${randomUUID().slice(0, 8)} s.r.o.`;
    const file = csv([
      ['Invoice_Ref', 'ISSUE_DATE', 'Due Date', 'buyer_name', 'Buyer_VAT_ID', 'buyer_city', 'NOTE', 'item_name', 'Quantity', 'unit_code', 'Unit_Price', 'vat_rate'],
      ['F1', `15.3.${year}`, `29.03.${year}`, buyer, 'SK2020000004', 'Košice', 'Prvý riadok\nDruhý riadok; s bodkočiarkou', 'Konzultácia', '1,5', 'HUR', '1 200,50', '23'],
      ['F1', '', '', '', '', '', '', 'Cestovné', '2', 'C62', '12,25', '23'],
      ['F2', `${year}-03-16`, `${year}-03-30`, buyer, 'SK2020000004', 'Košice', '', 'Licencia "Pro"', '1', '', '99,9', '5'],
    ], ';', true);
    const job = await client.run(company, file);
    expect(job).to.include({ status: 'completed', total_rows: 3, rows_processed: 3, created: 2, errors_total: 0 });
    expect(job.errors).to.deep.equal([]);
    const rows = await listed(buyer);
    expect(rows).to.have.length(2);
    const [one, two] = (await invoicesOf(rows.map((r) => r.id))).sort((a, b) => a.lines.length < b.lines.length ? 1 : -1);
    expect(one).to.include({ status: 'draft', issue_date: `${year}-03-15`, due_date: `${year}-03-29`, note: 'Prvý riadok\nDruhý riadok; s bodkočiarkou', currency_code: 'EUR' });
    expect(one.supplier.vat_id).to.equal(svc.demo.companies[0]!.vat_id);
    expect(one.buyer).to.include({ name: buyer, vat_id: 'SK2020000004', city: 'Košice' });
    expect(one.lines.map((l: Record<string, string>) => [l.item_name, l.quantity, l.unit_code, l.unit_price])).to.deep.equal([
      ['Konzultácia', '1.5', 'HUR', '1200.50'], ['Cestovné', '2', 'C62', '12.25'],
    ]);
    // 1.5 × 1200.50 + 2 × 12.25 = 1825.25 net, 23 %
    expect([one.total_net, one.total_vat, one.total_gross]).to.deep.equal(['1825.25', '419.81', '2245.06']);
    expect(two.lines.map((l: Record<string, string>) => [l.item_name, l.unit_price, l.vat_rate])).to.deep.equal([['Licencia "Pro"', '99.9', '5']]);
    expect(one.invoice_number).to.match(new RegExp(`^${year}\\d{6}$`)); // numbering filled it
  });

  it('takes a multipart upload with , between cells and a decimal point, and keeps the file name', async () => {
    const buyer = `Multipart ${randomUUID().slice(0, 8)} a.s.`;
    const file = csv([HEADER, ['M1', `${year}-04-01`, `${year}-04-15`, buyer, 'SK2020000004', 'Žilina', '', 'Služba, mesačne', '1', 'MON', '100.00', '23']], ',');
    const sent = await client.upload(company, file, 'faktúry.csv');
    expect(sent.status).to.equal(202);
    expect(sent.body).to.deep.equal({ job_id: sent.body.job_id, status: 'processing' });
    expect(sent.headers.get('location')).to.equal(`/api/v1/companies/${company}/bulk-imports/${sent.body.job_id}`);
    const job = await client.finished(company, sent.body.job_id);
    expect(job).to.include({ status: 'completed', created: 1, file_name: 'faktúry.csv' });
    const [invoice] = await invoicesOf((await listed(buyer)).map((r) => r.id));
    expect(invoice.lines[0]).to.include({ item_name: 'Služba, mesačne', unit_code: 'MON', unit_price: '100.00' });
  });

  it('answers what it made: each created invoice with its rows, invoice_ref, id and number; a refused one (due before issue) only in errors', async () => {
    const buyer = `Made ${randomUUID().slice(0, 8)}`;
    const row = (ref: string, item: string, due = `${year}-06-15`) => [ref, `${year}-06-01`, due, buyer, 'SK2020000004', '', '', item, '1', '', '10', '23'];
    const lineOf = (ref: string, item: string) => [ref, '', '', '', '', '', '', item, '1', '', '10', '23'];
    const job = await client.run(company, csv([HEADER, row('X', 'x1'), row('Y', 'y1'), lineOf('X', 'x2'), row('Z', 'z1', `${year}-05-31`), lineOf('Y', 'y2'), lineOf('X', 'x3')]));
    expect(job).to.include({ status: 'completed', total_rows: 6, created: 2 });
    // Z's due_date (row 5) is before its issue_date: refused at due_date, not created
    expect(job.errors.map((e) => [e.row, e.column])).to.deep.equal([[5, 'due_date']]);
    expect(job.errors[0]!.message).to.include('before issue_date');
    expect(job.invoices.map((i) => [i.invoice_ref, i.rows])).to.deep.equal([['X', [2, 4, 7]], ['Y', [3, 6]]]);
    const made = await invoicesOf(job.invoices.map((i) => i.invoice_id));
    expect(made.map((m) => [m.id, m.invoice_number, m.lines.length])).to.deep.equal(job.invoices.map((i) => [i.invoice_id, i.invoice_number, i.rows.length]));
    expect((await listed(buyer)).map((r) => r.id).sort()).to.deep.equal(job.invoices.map((i) => i.invoice_id).sort());
  });

  it('creates an invoice whole or not at all: one bad row refuses its invoice, the others are created', async () => {
    const buyer = `Atomic ${randomUUID().slice(0, 8)}`;
    const row = (ref: string, item: string, price: string, rate = '23') => [ref, `${year}-05-01`, `${year}-05-15`, buyer, 'SK2020000004', '', '', item, '1', '', price, rate];
    const job = await client.run(company, csv([HEADER, row('A', 'ok 1', '10'), row('B', 'ok', '10'), row('A', 'bad price', 'desať'), row('A', 'ok 2', '10'), row('C', 'zero S', '10', '0')]));
    expect(job).to.include({ status: 'completed', total_rows: 5, rows_processed: 5, created: 1 });
    expect(job.errors.map((e) => [e.row, e.column])).to.deep.equal([[4, 'unit_price'], [6, 'vat_rate'], [6, 'vat_rate']]);
    expect(job.errors[0]!.message).to.include('not a decimal number');
    // the invoice rules' own codes: rate 0 with category S
    expect(job.errors.slice(1).map((e) => e.message.split(':')[0])).to.deep.equal(['BR-S-05', 'SK-SVC-010']);
    const rows = await listed(buyer);
    expect(rows).to.have.length(1);
    const [b] = await invoicesOf(rows.map((r) => r.id));
    expect(b.lines.map((l: { item_name: string }) => l.item_name)).to.deep.equal(['ok']);
  });

  it('applies the invoice API\'s checks and points each at its row and column', async () => {
    const buyer = `Checks ${randomUUID().slice(0, 8)}`;
    const job = await client.run(company, csv([
      HEADER,
      ['X1', `${year}-06-01`, `${year}-06-15`, buyer, 'SK2020000004', '', '', 'a', '1', '', '10', '23'],
      ['X1', `${year}-06-02`, '', '', '', '', '', 'b', '1', '', '10', '23'], // a different issue date on a later row
      ['', `${year}-06-01`, `${year}-06-15`, buyer, 'SK2020000004', '', '', 'no ref', '1', '', '10', '23'],
      ['X2', `31.2.${year}`, `${year}-06-15`, buyer, 'SK2020000004', '', '', 'bad day', '1', '', '10', '23'],
      ['X3', `${year}-06-01`, `${year}-06-15`, buyer, 'SK123', '', '', 'bad vat id', '1', '', '10', '23'],
      ['X4', `${year}-06-01`, `${year}-06-15`, '', '', '', '', 'no buyer', '1', '', '10', '23'],
      ['X5', `${year}-06-01`, `${year}-06-15`, buyer, 'SK2020000004', '', '', 'negative price', '1', '', '-10', '23'],
    ]));
    expect(job).to.include({ status: 'completed', total_rows: 7, created: 0 });
    const at = (row: number) => job.errors.filter((e) => e.row === row).map((e) => e.column);
    expect(at(3)).to.deep.equal(['issue_date']);
    expect(job.errors.find((e) => e.row === 3)!.message).to.include('differs from');
    expect(at(4)).to.deep.equal(['invoice_ref']);
    expect(at(5)).to.deep.equal(['issue_date']);
    expect(at(6)).to.deep.equal(['buyer_vat_id']);
    expect(at(7)).to.deep.equal(['buyer_name']);
    expect(at(8)).to.deep.equal(['unit_price']);
    expect(job.errors.map((e) => e.row)).to.deep.equal([...job.errors.map((e) => e.row)].sort((a, b) => a - b));
    expect(await listed(buyer)).to.have.length(0);
  });

  it('fails a file unusable as a whole, creating nothing: unknown or missing columns, malformed CSV, not UTF-8, no header', async () => {
    const unknown = await client.run(company, csv([[...HEADER, 'colour'], ['Z', `${year}-01-01`, '', 'B', '', '', '', 'x', '1', '', '1', '23', 'red']]));
    expect(unknown).to.include({ status: 'failed', created: 0, total_rows: 1 });
    expect(unknown.errors).to.deep.equal([{ row: 1, column: 'colour', message: unknown.errors[0]!.message }]);
    const missing = await client.run(company, csv([HEADER.filter((h) => h !== 'vat_rate'), ['Z', `${year}-01-01`, '', 'B', '', '', '', 'x', '1', '', '1']]));
    expect(missing).to.include({ status: 'failed', created: 0 });
    expect(missing.errors.map((e) => [e.row, e.column])).to.deep.equal([[1, 'vat_rate']]);
    const unclosed = await client.run(company, `${HEADER.join(';')}\r\nZ;${year}-01-01;;B;;;"open note;x;1;;1;23\r\n`);
    expect(unclosed).to.include({ status: 'failed', created: 0 });
    expect(unclosed.errors[0]).to.include({ row: 2, column: null });
    const cp1250 = Buffer.from(`${HEADER.join(';')}\r\nZ;${year}-01-01;;Odberate\u013e;;;;x;1;;1;23\r\n`, 'latin1');
    cp1250[cp1250.indexOf(0x3e, HEADER.join(';').length)] = 0xbe; // ľ in Windows-1250
    const notUtf8 = await client.run(company, cp1250);
    expect(notUtf8).to.include({ status: 'failed', created: 0, total_rows: 0 });
    expect(notUtf8.errors[0]).to.include({ row: 2, column: null });
    expect(notUtf8.errors[0]!.message).to.include('not UTF-8');
    const blank = await client.run(company, '\r\n\r\n');
    expect(blank).to.include({ status: 'failed' });
    expect(blank.errors.map((e) => e.row)).to.deep.equal([1]);
  });

  it('refuses what is not a file before making a job: wrong content type, empty body, a multipart upload without the file field', async () => {
    const json = await client.send(company, '{"a":1}', 'application/json');
    expect([json.status, json.body.detail.error]).to.deep.equal([400, 'unsupported_content_type']);
    const latin = await client.send(company, 'a;b', 'text/csv; charset=windows-1250');
    expect([latin.status, latin.body.detail.error]).to.deep.equal([400, 'unsupported_content_type']);
    const empty = await client.send(company, '');
    expect([empty.status, empty.body.detail.error]).to.deep.equal([422, 'file_empty']);
    const wrongField = await client.upload(company, csv([HEADER]), 'a.csv', 'attachment');
    expect([wrongField.status, wrongField.body.detail.error]).to.deep.equal([422, 'file_missing']);
  });

  it('takes an Idempotency-Key: a retried upload answers the same job and makes no second one; another file under the key is refused', async () => {
    const file = csv([HEADER, ['I', `${year}-01-07`, `${year}-01-21`, 'Idem s.r.o.', 'SK2020000004', '', '', 'x', '1', '', '1', '23']]);
    const post = (body: string) => fetch(`${svc.api}/companies/${company}/invoices/bulk-import`, {
      method: 'POST', headers: { 'x-api-key': svc.demo.api_key, 'content-type': 'text/csv', 'idempotency-key': key }, body,
    });
    const key = `bulk-${randomUUID()}`;
    const first = await post(file);
    const again = await post(file);
    expect([first.status, again.status]).to.deep.equal([202, 202]);
    const [a, b] = [await first.json(), await again.json()] as { job_id: string }[];
    expect(b!.job_id).to.equal(a!.job_id);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const other = await post(file.replace('Idem', 'Iný'));
    expect([other.status, ((await other.json()) as { detail: { error: string } }).detail.error]).to.deep.equal([422, 'idempotency_key_reused']);
    expect(await client.finished(company, a!.job_id)).to.include({ status: 'completed', created: 1 });
  });

  it('is plan-gated: a plan without bulk import gets 403 feature_not_available', async () => {
    const lite = await createTestOrganisation(svc.services, 'Solo Lite');
    const refused = await importClient(svc.api, lite.apiKey).send(lite.companyId, csv([HEADER]));
    expect(refused.status).to.equal(403);
    expect(refused.body.detail).to.include({ error: 'feature_not_available', feature: 'bulk_import', current_plan: 'Solo Lite' });
  });

  it('answers 404 for a job of another organisation or another company, and for no job', async () => {
    const job = await client.run(company, csv([HEADER, ['N', `${year}-01-05`, `${year}-01-19`, 'B s.r.o.', 'SK2020000004', '', '', 'x', '1', '', '1', '23']]));
    const stranger = await createTestOrganisation(svc.services, 'Team Business');
    const foreign = await importClient(svc.api, stranger.apiKey).status(stranger.companyId, job.job_id);
    expect([foreign.status, foreign.body.detail.error]).to.deep.equal([404, 'bulk_import_job_not_found']);
    const otherCompany = await client.status(svc.demo.companies[1]!.id, job.job_id);
    expect([otherCompany.status, otherCompany.body.detail.error]).to.deep.equal([404, 'bulk_import_job_not_found']);
    const none = await client.status(company, randomUUID());
    expect(none.status).to.equal(404);
  });

  it('counts each created invoice against the quota: past it, the remaining invoices get row errors naming usage_limit_exceeded', async () => {
    const starter = await createTestOrganisation(svc.services, 'Solo Starter'); // 200 a month, no overage
    // 198 of the month's 200 already counted
    await Promise.all(Array.from({ length: 198 }, () =>
      countInvoice(svc.services, { organisationId: starter.organisationId, invoiceId: randomUUID(), source: 'api' }, systemMetadata('test'))));
    const rows = ['Q1', 'Q2', 'Q3', 'Q4'].map((ref) => [ref, `${year}-02-01`, `${year}-02-15`, 'Kvóta s.r.o.', 'SK2020000004', '', '', 'x', '1', '', '10', '23']);
    const job = await importClient(svc.api, starter.apiKey).run(starter.companyId, csv([HEADER, ...rows]));
    expect(job).to.include({ status: 'completed', total_rows: 4, created: 2 });
    expect(job.errors).to.have.length(2);
    for (const error of job.errors) expect(error.message).to.match(/^usage_limit_exceeded: /);
  });

  it('an invoice refused after it was counted (its number already taken) leaves no count behind', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Starter');
    const month = usageMonth(new Date());
    const total = async () => ((await svc.services.store.readStream(usageStream(org.organisationId, month))).at(-1)?.data.count as number | undefined) ?? 0;
    const head = [...HEADER, 'invoice_number'];
    const row = (ref: string, number: string) => [ref, `${year}-03-01`, `${year}-03-15`, 'Číslo s.r.o.', 'SK2020000004', '', '', 'x', '1', '', '10', '23', number];
    const first = await importClient(svc.api, org.apiKey).run(org.companyId, csv([head, row('A', `DUP-${year}-1`)]));
    expect(first).to.include({ status: 'completed', created: 1 });
    const before = await total();
    const again = await importClient(svc.api, org.apiKey).run(org.companyId, csv([head, row('B', `DUP-${year}-1`), row('C', `DUP-${year}-2`)]));
    expect(again).to.include({ status: 'completed', total_rows: 2, created: 1 });
    expect(again.errors).to.have.length(1);
    expect(await total(), 'only the created invoice counts').to.equal(before + 1);
  });

  it('serves a template that imports as it is', async () => {
    const template = await fetch(`${svc.api}/invoices/bulk-import/template.csv`);
    expect(template.status).to.equal(200);
    expect(template.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await template.arrayBuffer());
    expect([...bytes.slice(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const job = await client.run(company, bytes);
    expect(job).to.include({ status: 'completed', total_rows: 3, created: 2, errors_total: 0 });
  });

  it('imports the sample in docs/ as it is: three lines and two, a note over two lines, a discount, a price with a space between thousands', async () => {
    const sample = await readFile(new URL('../../docs/bulk-import-sample.csv', import.meta.url));
    const job = await client.run(company, sample);
    expect(job).to.include({ status: 'completed', total_rows: 5, created: 2, errors_total: 0 });
    const [kaviaren] = await invoicesOf((await listed('Kaviareň pod Hradom')).map((r) => r.id));
    expect(kaviaren.note).to.equal('Ďakujeme za objednávku.\r\nTovar zostáva naším majetkom až do úplného zaplatenia.');
    expect(kaviaren.lines.map((l: Record<string, string>) => [l.item_name, l.quantity, l.unit_price, l.discount_percentage])).to.deep.equal([
      ['Káva zrnková 1 kg', '12', '18.90', null], ['Čaj sypaný 250 g', '20', '4.35', '10'], ['Doprava', '1', '15', null],
    ]);
    const [stavebniny] = await invoicesOf((await listed('Stavebniny Žilina')).map((r) => r.id));
    expect(stavebniny).to.include({ delivery_date: '2026-03-14' });
    expect(stavebniny.lines.map((l: Record<string, string>) => [l.item_name, l.unit_price, l.discount_amount])).to.deep.equal([['Montážne práce', '32.00', '5.00'], ['Materiál "Pro"', '1249.90', null]]);
  });

  it('documents the routes and the columns in OpenAPI', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json();
    const post = doc.paths['/companies/{company_id}/invoices/bulk-import'].post;
    expect(Object.keys(post.requestBody.content)).to.deep.equal(['text/csv', 'multipart/form-data']);
    expect(post.description).to.include('| vat_exemption_reason_code | line |');
    expect(doc.paths['/companies/{company_id}/bulk-imports/{job_id}'].get.responses['200']).to.exist;
    expect(Object.keys(doc.components.schemas.BulkImportCsvRow.properties)).to.include.members(['invoice_ref', 'buyer_peppol_id', 'discount_amount']);
  });
});
