import { expect } from 'chai';
import { createTddValidator, type TddValidator } from '../../src/modules/delivery/fs/tax-data-document/index.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Invoice = { id: string; status: string; invoice_number: string; total_net: string; total_vat: string; total_gross: string; source: string; [k: string]: unknown };

/**
 * The sandbox exchange end to end, over real HTTP: demo company 0 sends an invoice to demo
 * company 1; the Peppol leg delivers it, both sides file their tax data document with FS.
 */
describe('sandbox exchange: company 0 sends an invoice to company 1', function () {
  this.timeout(180_000);
  let svc: TestService;
  let tdd: TddValidator;
  let sender: string;
  let receiver: string;
  let sent: Invoice;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator(); // its workers load the rule sets first: minutes on a loaded machine, before the send can go
    tdd = await createTddValidator();
    sender = svc.demo.companies[0]!.id;
    receiver = svc.demo.companies[1]!.id;
    const buyer = svc.demo.companies[1]!;
    const customer = await svc.call('POST', `/companies/${sender}/customers`, {
      name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id, city: 'Košice', postal_code: '04001',
    });
    const created = await svc.call('POST', `/companies/${sender}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer.body.id,
      lines: [
        { item_name: 'Konzultácia', quantity: '3', unit_code: 'HUR', unit_price: '80.00', vat_rate: '23' },
        { item_name: 'Učebnica', quantity: '2', unit_price: '19.90', vat_rate: '5' },
      ],
    });
    expect(created.status).to.equal(201);
    const queued = await svc.call('POST', `/companies/${sender}/invoices/${created.body.id}/send`);
    expect(queued.status).to.equal(202);
    expect(queued.body).to.include({ invoice_id: created.body.id, status: 'queued' });
    sent = await eventually(
      async () => (await svc.call('GET', `/companies/${sender}/invoices/${created.body.id}`)).body as Invoice,
      (i) => ['fs_acknowledged', 'failed', 'rejected'].includes(i.status),
    );
  });
  after(async () => svc?.close());

  it('the sender’s copy reaches delivered and fs_acknowledged', () => {
    expect(sent.status).to.equal('fs_acknowledged');
    expect(sent.peppol_delivery).to.include({ status: 'delivered', attempts: 0, error: null });
    expect(sent.peppol_message_id).to.be.a('string').and.equal((sent.peppol_delivery as { message_id: string }).message_id);
    expect(sent.c5).to.include({ status: 'acknowledged', reporter_role: 'C2', mls_response_code: 'AP' });
    expect(sent.fs_submission_id).to.be.a('string').and.equal((sent.c5 as { submission_id: string }).submission_id);
  });

  it('the receiver lists the inbound copy with the same number and totals, read-only, filed as C3', async () => {
    const inbound = await eventually(
      async () => ((await svc.call('GET', `/companies/${receiver}/invoices?q=${sent.invoice_number}`)).body.items as Invoice[]).find((i) => i.source === 'peppol'),
      (i) => i?.status === 'fs_acknowledged',
    );
    expect(inbound, 'inbound copy').to.not.equal(undefined);
    const copy = (await svc.call('GET', `/companies/${receiver}/invoices/${inbound!.id}`)).body as Invoice;
    expect(copy.id).to.not.equal(sent.id);
    expect(copy).to.include({ source: 'peppol', invoice_number: sent.invoice_number, total_net: sent.total_net, total_vat: sent.total_vat, total_gross: sent.total_gross });
    expect(copy.peppol_message_id).to.equal(sent.peppol_message_id);
    expect(copy.vat_breakdown).to.deep.equal(sent.vat_breakdown);
    expect(copy.c5).to.include({ status: 'acknowledged', reporter_role: 'C3' });
    const received = ((await svc.call('GET', `/companies/${receiver}/invoices/${copy.id}/history`)).body.events as { type: string; data: Record<string, unknown> }[])[0]!;
    expect(received.type).to.equal('InvoiceReceived');
    // what invoice.received will publish
    expect(received.data).to.include({
      invoice_id: copy.id, source: 'peppol', invoice_number: sent.invoice_number, supplier_vat_id: svc.demo.companies[0]!.vat_id,
      peppol_message_id: sent.peppol_message_id,
    });
    // company 1 has a SAPI-SK client (the demo installs one per company): its inbox holds a copy
    expect(received.data.provider_document_id).to.match(/^svc_sapi_in_[0-9a-f]{32}$/);
    const edit = await svc.call('PUT', `/companies/${receiver}/invoices/${copy.id}`, { issue_date: '2026-11-20', lines: [] }, { 'if-match': String(copy.version) });
    expect(edit.status).to.be.oneOf([409, 422]);
    expect((await svc.call('POST', `/companies/${receiver}/invoices/${copy.id}/send`)).status).to.equal(409);
    const ubl = await fetch(`${svc.api}/companies/${receiver}/invoices/${copy.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } });
    expect(await ubl.text()).to.contain(`<cbc:ID>${sent.invoice_number}</cbc:ID>`);
  });

  it('every tax data document filed passes the official TDD schema and Schematron', async () => {
    const filed = await svc.sandbox.fs.filed();
    const roles = filed.map((f) => f.reporter_role).sort();
    expect(roles).to.deep.equal(['C2', 'C3']);
    for (const filing of filed) {
      const report = tdd.validate(filing.tdd);
      expect(report.errors, `${filing.reporter_role}: ${JSON.stringify(report.errors.slice(0, 3))}`).to.deep.equal([]);
      expect(report.valid).to.equal(true);
    }
  });

  it('the history shows every step of the journey', async () => {
    const history = async (company: string, id: string) =>
      ((await svc.call('GET', `/companies/${company}/invoices/${id}/history`)).body.events as { type: string }[]).map((e) => e.type);
    const list = await history(sender, sent.id);
    expect(list).to.include.members(['InvoiceCreated', 'InvoiceQueued', 'InvoiceAuditEntryRecorded', 'PeppolMessageSent', 'PeppolDeliveryConfirmed', 'FsCopySubmitted', 'FsCopyAcknowledged']);
    expect(list.indexOf('InvoiceQueued')).to.be.lessThan(list.indexOf('PeppolMessageSent'));
    expect(list.filter((t) => t === 'PeppolMessageSent')).to.have.length(1);
  });
});
