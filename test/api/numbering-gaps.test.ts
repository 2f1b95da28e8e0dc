import { expect } from 'chai';
import { invoiceSeriesStream, invoiceStream } from '../../events/invoices.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Issue 37 item 1: no refused request takes a number. Found by a hostile-client probe: six credit
 * notes sent at once at one If-Match gave one 202 and five 412, and the next credit note was
 * DOB-2026-28 instead of DOB-2026-23. A series number is reserved in the same append as the
 * document that takes it, so after requests refused concurrently in every way (412, 409, 422,
 * 402) every reservation in the series belongs to a document that exists, the numbers follow one
 * another, and the next document takes the next one.
 */
describe('no refused request takes a number from a series', function () {
  this.timeout(300_000);
  let svc: TestService;
  const year = String(new Date().getUTCFullYear());
  const line = { item_name: 'Servis', quantity: '10', unit_price: '100.00', vat_rate: '23' };

  before(async () => {
    // no delivery reactors: a sent invoice's version stays where its If-Match names it
    svc = await startTestService({ runReactors: false });
  });
  after(async () => svc?.close());

  /** Every reservation of the series: it names a document that was written with that very number, and the sequence has no hole but numbers a client took by hand. */
  async function seriesWithoutGaps(workspaceId: string, kind: 'invoice' | 'credit_note', takenByHand: string[] = []): Promise<string[]> {
    const reservations = await svc.services.store.readStream(invoiceSeriesStream(workspaceId, kind, year));
    const numbers: string[] = [];
    for (const { data } of reservations) {
      const { seq, invoice_number, invoice_id } = data as { seq: number; invoice_number: string; invoice_id: string };
      const document = await svc.services.store.readStream(invoiceStream(invoice_id));
      expect(document, `${invoice_number} (seq ${seq}) was reserved for ${invoice_id}, which was never written`).to.not.be.empty;
      // InvoiceCreated or CreditNoteCreated: the number is in the content
      const created = document[0]!.data as { content: { invoice_number: string } };
      expect(created.content.invoice_number, `the document holding seq ${seq}`).to.equal(invoice_number);
      numbers.push(invoice_number);
    }
    const seqs = reservations.map((e) => (e.data as { seq: number }).seq);
    const holes = seqs.flatMap((seq, i) => Array.from({ length: seq - (i === 0 ? 0 : seqs[i - 1]!) - 1 }, (_, k) => seq - 1 - k));
    expect(holes.length, `series holes at seq ${holes.join(', ')} (client-taken: ${takenByHand.join(', ')})`).to.be.at.most(takenByHand.length);
    return numbers;
  }

  const seqOf = (number: string) => Number(number.split('-').at(-1));

  it('six credit notes at one If-Match: one 202, five 412, and the next credit note takes the very next number', async () => {
    const seller = svc.demo.companies[0]!;
    const buyer = svc.demo.companies[1]!;
    const customer = (await svc.call('POST', `/companies/${seller.id}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
    const invoice = (await svc.call('POST', `/companies/${seller.id}/invoices`, { issue_date: `${year}-11-20`, due_date: `${year}-12-04`, customer_id: customer, lines: [line] })).body;
    expect((await svc.call('POST', `/companies/${seller.id}/invoices/${invoice.id}/send`)).status).to.equal(202);
    const creditNotes = `/companies/${seller.id}/invoices/${invoice.id}/credit-notes`;
    const body = { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '1.00' }] };

    const version = (await svc.call('GET', `/companies/${seller.id}/invoices/${invoice.id}`)).body.version as number;
    const raced = await Promise.all(Array.from({ length: 6 }, () => svc.call('POST', creditNotes, body, { 'if-match': `"${version}"` })));
    const statuses = raced.map((a) => a.status);
    expect(statuses.filter((s) => s === 202), JSON.stringify(statuses)).to.have.length(1);
    expect(statuses.filter((s) => s === 412), JSON.stringify(statuses)).to.have.length(5);
    const winner = raced.find((a) => a.status === 202)!.body.invoice_number as string;

    const preview = (await svc.call('GET', `/companies/${seller.id}/invoices/numbering/next?invoice_type=381&year=${year}`)).body.invoice_number as string;
    expect(seqOf(preview), `after ${winner}`).to.equal(seqOf(winner) + 1);
    const again = (await svc.call('GET', `/companies/${seller.id}/invoices/${invoice.id}`)).body.version as number;
    const next = await svc.call('POST', creditNotes, body, { 'if-match': `"${again}"` });
    expect(next.status, JSON.stringify(next.body)).to.equal(202);
    expect(next.body.invoice_number).to.equal(preview);
    await seriesWithoutGaps(svc.demo.workspace_id, 'credit_note');
  });

  /** An invoice issued by hand (its credit notes are too: 201) in the company `as` calls for, with its version. */
  async function issuedByHand(as: Caller, company: string): Promise<{ id: string; version: number }> {
    const invoices = `/companies/${company}/invoices`;
    const created = await as('POST', invoices, { issue_date: `${year}-11-23`, due_date: `${year}-12-07`, buyer: { name: 'Odberateľ', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [line] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect((await as('POST', `${invoices}/${created.body.id}/mark-sent`, {})).status).to.equal(200);
    return { id: created.body.id, version: (await as('GET', `${invoices}/${created.body.id}`)).body.version };
  }
  type Caller = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ReturnType<TestService['call']>;
  const small = { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '1.00' }] };

  it('credit notes refused at once for a stale version (412), the limit (422) and a reversed invoice (409) take no number', async () => {
    const demo: Caller = (method, path, body, headers = {}) => svc.call(method, path, body, headers);
    const company = svc.demo.companies[0]!.id;
    const credit = (invoice: { id: string; version: number }, body: unknown, version = invoice.version) =>
      demo('POST', `/companies/${company}/invoices/${invoice.id}/credit-notes`, body, { 'if-match': `"${version}"` });
    const [a, b, c, d] = [await issuedByHand(demo, company), await issuedByHand(demo, company), await issuedByHand(demo, company), await issuedByHand(demo, company)];
    const reversal = await credit(d, { reason: 'full_reversal', note: 'storno' });
    expect(reversal.status, JSON.stringify(reversal.body)).to.equal(201);
    const reversed = { ...d, version: Number(reversal.headers.get('x-invoice-version')) };

    const answers = await Promise.all([
      credit(a, small), credit(a, small), credit(a, small), credit(a, small), // one wins, three 412
      credit(b, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '5000.00' }] }), // beyond the invoice: 422
      credit(c, small, c.version + 7), // a version the invoice never had: 412
      credit(reversed, small), credit(reversed, small), // nothing left to credit: 409
    ]);
    const statuses = answers.map((x) => `${x.status} ${x.body?.detail?.error ?? x.body?.invoice_number ?? ''}`);
    expect(answers.slice(0, 4).filter((x) => x.status === 201), JSON.stringify(statuses)).to.have.length(1);
    expect(answers.slice(0, 4).filter((x) => x.status === 412), JSON.stringify(statuses)).to.have.length(3);
    expect(answers.slice(4).map((x) => x.status), JSON.stringify(statuses)).to.deep.equal([422, 412, 409, 409]);

    const winner = answers.find((x) => x.status === 201)!.body.invoice_number as string;
    expect(seqOf(winner), 'the winner took the number after the reversal').to.equal(seqOf(reversal.body.invoice_number) + 1);
    const preview = (await demo('GET', `/companies/${company}/invoices/numbering/next?invoice_type=381&year=${year}`)).body.invoice_number as string;
    expect(seqOf(preview)).to.equal(seqOf(winner) + 1);
    await seriesWithoutGaps(svc.demo.workspace_id, 'credit_note');
  });

  it('credit notes refused at once for the monthly quota (402) take no number', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Free');
    const as: Caller = (method, path, body, headers = {}) => svc.call(method, path, body, { 'x-api-key': org.apiKey, ...headers });
    const issued = [];
    for (let i = 0; i < 8; i++) issued.push(await issuedByHand(as, org.companyId));
    // 8 of the plan's 10 documents this month are used: two credit notes fit, three are 402
    const answers = await Promise.all(issued.slice(0, 5).map((invoice) =>
      as('POST', `/companies/${org.companyId}/invoices/${invoice.id}/credit-notes`, small, { 'if-match': `"${invoice.version}"` })));
    const statuses = answers.map((x) => `${x.status} ${x.body?.detail?.error ?? x.body?.invoice_number ?? ''}`);
    expect(answers.filter((x) => x.status === 201), JSON.stringify(statuses)).to.have.length(2);
    expect(answers.filter((x) => x.status === 402), JSON.stringify(statuses)).to.have.length(3);

    const numbers = await seriesWithoutGaps(org.workspaceId, 'credit_note');
    expect(numbers.sort()).to.deep.equal(answers.filter((x) => x.status === 201).map((x) => x.body.invoice_number as string).sort());
    const preview = (await as('GET', `/companies/${org.companyId}/invoices/numbering/next?invoice_type=381&year=${year}`)).body.invoice_number as string;
    expect(seqOf(preview)).to.equal(3);
  });

  it('invoices created at once, some refused and some meeting numbers a client took by hand: the series has no gap', async () => {
    const company = svc.demo.companies[0]!.id;
    const invoices = `/companies/${company}/invoices`;
    const next = async () => (await svc.call('GET', `${invoices}/numbering/next?year=${year}`)).body.invoice_number as string;
    const first = await next();
    // the client gives the series' second and fourth next numbers to invoices of its own
    const taken = [String(Number(first) + 1), String(Number(first) + 3)];
    for (const number of taken) {
      expect((await svc.call('POST', invoices, { issue_date: `${year}-05-04`, due_date: `${year}-05-18`, invoice_number: number, buyer: { name: 'Odberateľ', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [line] })).status).to.equal(201);
    }
    const valid = { issue_date: `${year}-05-04`, due_date: `${year}-05-18`, buyer: { name: 'Odberateľ', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [line] };
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => svc.call('POST', invoices, i % 3 === 2 ? { ...valid, lines: [{ ...line, vat_rate: '0' }] } : valid)));
    const created = answers.filter((a) => a.status === 201).map((a) => a.body.invoice_number as string);
    expect(created, JSON.stringify(answers.map((a) => a.status))).to.have.length(8);
    expect(answers.filter((a) => a.status === 422)).to.have.length(4);
    const expected = Array.from({ length: 10 }, (_, i) => String(Number(first) + i)).filter((n) => !taken.includes(n));
    expect(created.sort()).to.deep.equal(expected);
    expect(await next()).to.equal(String(Number(first) + 10));
    await seriesWithoutGaps(svc.demo.workspace_id, 'invoice', taken);
  });
});
