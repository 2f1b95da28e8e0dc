// The sandbox loop into the SAPI-SK inbox: a native send from demo company 0 to company 1 goes
// through the sandbox Peppol network and lands in company 1's inbox with the very UBL company 0
// sent; company 1's native inbound invoice and its invoice.received webhook name the inbox handle.
import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { sapiError, sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

describe('SAPI-SK inbox: a native send 0 → 1 through the sandbox loop', function () {
  this.timeout(600_000);
  let svc: TestService;
  let hooks: WebhookReceiver;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator(); // the rule sets load before any delivery can go
    hooks = await WebhookReceiver.start();
  });
  after(async () => {
    await hooks?.close();
    await svc?.close();
  });

  it('lands in company 1\'s inbox with the identical UBL, named on its native invoice and invoice.received; company 0 cannot see it', async () => {
    const sender = svc.demo.companies[0]!;
    const buyer = svc.demo.companies[1]!;
    const hook = await svc.call('POST', '/connect/webhooks', { url: hooks.url(), events: 'invoice.received' });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);

    const customer = (await svc.call('POST', `/companies/${sender.id}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
    const invoice = (await svc.call('POST', `/companies/${sender.id}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, lines: [{ item_name: 'Servis podľa zmluvy', quantity: '2', unit_price: '49.90', vat_rate: '23' }],
    })).body;
    const queued = await svc.call('POST', `/companies/${sender.id}/invoices/${invoice.id}/send`);
    expect(queued.status, JSON.stringify(queued.body)).to.equal(202);
    const sentUbl = await fetch(`${svc.api}/companies/${sender.id}/invoices/${invoice.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } });
    expect(sentUbl.status).to.equal(200);
    const ubl = await sentUbl.text();

    const inbox = await sapiTestClient(svc, 1);
    const listed = await eventually(async () => (await inbox.call('GET', '/document/receive')).body.documents as { documentId: string; senderParticipantId: string }[],
      (documents) => documents.some((d) => d.senderParticipantId === sender.peppol_id.toLowerCase()), { withinMs: 300_000, what: 'the sent invoice in company 1\'s inbox' });
    const item = listed.find((d) => d.senderParticipantId === sender.peppol_id.toLowerCase())!;
    expect(item).to.include({ status: 'RECEIVED', receiverParticipantId: buyer.peppol_id.toLowerCase() });
    expect(item.documentId).to.match(/^svc_sapi_in_[0-9a-f]{32}$/);

    const detail = await inbox.call('GET', `/document/receive/${item.documentId}`);
    expect(detail.status).to.equal(200);
    expect(detail.body.payload).to.equal(ubl);
    expect(detail.body.metadata.senderDocumentId).to.equal(invoice.invoice_number);

    // company 1's native inbound copy names the handle
    const inbound = await eventually(async () => (await svc.call('GET', `/companies/${buyer.id}/invoices?page_size=100`)).body.items as { id: string; source: string; invoice_number: string }[],
      (items) => items.some((i) => i.source === 'peppol' && i.invoice_number === invoice.invoice_number));
    const copy = inbound.find((i) => i.source === 'peppol' && i.invoice_number === invoice.invoice_number)!;
    const received = (await svc.services.store.readStream(`invoice-${copy.id}`)).find((e) => e.type === 'InvoiceReceived')!;
    expect(received.data.provider_document_id).to.equal(item.documentId);
    const arrivals = await hooks.waitFor(1, { withinMs: 120_000 });
    const body = JSON.parse(arrivals[0]!.rawBody.toString()) as { event: string; data: { invoice_id: string; provider_document_id: string | null } };
    expect(body).to.deep.include({ event: 'invoice.received' });
    expect(body.data).to.include({ invoice_id: copy.id, provider_document_id: item.documentId });

    // company 0's client sees nothing of it
    const foreign = await (await sapiTestClient(svc, 0)).call('GET', `/document/receive/${item.documentId}`);
    expect(sapiError(foreign).code).to.equal('SAPI-DOC-NOT-FOUND');

    const acknowledged = await inbox.call('POST', `/document/receive/${item.documentId}/acknowledge`);
    expect(acknowledged.body).to.include({ documentId: item.documentId, status: 'ACKNOWLEDGED' });
    const after = await inbox.call('GET', '/document/receive?status=ACKNOWLEDGED');
    expect(after.body.documents.map((d: { documentId: string }) => d.documentId)).to.include(item.documentId);
  });
});
