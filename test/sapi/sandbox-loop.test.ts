// Issue 18, item 8: the SAPI-SK sandbox loop over real HTTP with real tokens. Company 0's SAPI
// client sends an Invoice and a CreditNote to company 1; the sender sees SENT and fs ACKNOWLEDGED
// (and a c5_submission webhook); company 1 finds both in its SAPI inbox byte for byte and as
// native inbound invoices whose invoice.received names the inbox handle.
import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { bearer, requestToken, sapiFetch } from './auth-support.ts';
import { newKey, sendRequest, sha256Hex, ublBetween } from './support/send.ts';

describe('SAPI-SK sandbox loop: company 0 sends an Invoice and a CreditNote to company 1', function () {
  this.timeout(600_000);
  let svc: TestService;
  let hooks: WebhookReceiver;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator(); // the rule sets load before any send
    hooks = await WebhookReceiver.start();
  });
  after(async () => {
    await hooks?.close();
    await svc?.close();
  });

  it('delivers both, files the sender\'s FS copy, and lands them in company 1\'s SAPI inbox and native API', async () => {
    const [from, to] = [svc.demo.companies[0]!, svc.demo.companies[1]!];
    const hook = await svc.call('POST', '/connect/webhooks', { url: hooks.url(), events: 'invoice.fs_acknowledged,invoice.received' });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);

    // real tokens, through POST /sapi/auth/token
    const tokens = await Promise.all([requestToken(svc, 0), requestToken(svc, 1)]);
    for (const t of tokens) expect(t.status, JSON.stringify(t.body)).to.equal(200);
    const [senderAuth, receiverAuth] = tokens.map((t) => bearer(t.body.access_token as string));
    const asSender = { ...senderAuth, 'x-peppol-participant-id': from.sapi.participant_id };
    const asReceiver = { ...receiverAuth, 'x-peppol-participant-id': to.sapi.participant_id };

    // the two documents: the service's own UBL of an invoice and of a credit note 0 → 1
    const { xml: invoiceXml, invoiceId } = await ublBetween(svc, { companyId: from.id }, to);
    expect((await svc.call('POST', `/companies/${from.id}/invoices/${invoiceId}/mark-sent`, {})).status).to.equal(200);
    const version = (await svc.call('GET', `/companies/${from.id}/invoices/${invoiceId}`)).body.version as number;
    const credited = await svc.call('POST', `/companies/${from.id}/invoices/${invoiceId}/credit-notes`, { reason: 'full_reversal' }, { 'if-match': `"${version}"` });
    expect(credited.status, JSON.stringify(credited.body)).to.equal(201);
    const creditNoteXml = await (await fetch(`${svc.api}/companies/${from.id}/invoices/${credited.body.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } })).text();
    const sent = [
      { xml: invoiceXml, request: sendRequest(invoiceXml, from.peppol_id, to.peppol_id, { documentId: 'ERP-FA-1' }) },
      { xml: creditNoteXml, request: sendRequest(creditNoteXml, from.peppol_id, to.peppol_id, { root: 'CreditNote', documentId: 'ERP-DOB-1' }) },
    ];

    // sender: 202, then SENT and fs ACKNOWLEDGED
    const handles: { providerDocumentId: string; xml: string }[] = [];
    for (const { xml, request } of sent) {
      const answer = await sapiFetch(svc, 'POST', '/document/send', { ...request, checksum: sha256Hex(xml) }, { ...asSender, 'idempotency-key': newKey() });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
      expect(answer.body.status).to.equal('ACCEPTED');
      handles.push({ providerDocumentId: answer.body.providerDocumentId as string, xml });
    }
    const statuses = [];
    for (const { providerDocumentId } of handles) {
      statuses.push(await eventually(async () => (await sapiFetch(svc, 'GET', `/document/status/${providerDocumentId}`, undefined, asSender)).body,
        (s) => s.status === 'SENT' && s.fs?.status === 'ACKNOWLEDGED', { what: `${providerDocumentId} SENT and fs ACKNOWLEDGED`, withinMs: 120_000 }));
    }

    // the sender's FS verdicts raise invoice.fs_acknowledged on resource c5_submission (no mirror invoice)
    const arrivals = await eventually(async () => hooks.arrivals.map((a) => JSON.parse(a.rawBody.toString()) as Record<string, any>), // eslint-disable-line @typescript-eslint/no-explicit-any
      (all) => handles.every((h) => all.some((b) => b.type === 'invoice.fs_acknowledged' && b.resource?.id === h.providerDocumentId)), { what: 'c5_submission webhooks', withinMs: 120_000 });
    for (const { providerDocumentId } of handles) {
      const event = arrivals.find((b) => b.type === 'invoice.fs_acknowledged' && b.resource?.id === providerDocumentId)!;
      expect(event.resource.type).to.equal('c5_submission');
      expect(event.data).to.include({ invoice_id: null, provider_document_id: providerDocumentId, direction: 'sent', reporter_role: 'C2', state: 'acknowledged' });
    }

    // receiver, SAPI: both RECEIVED in the inbox, with the very payload sent; acknowledge
    const messageIds = statuses.map((s) => s.peppolMessageId as string);
    const listed = await eventually(async () => (await sapiFetch(svc, 'GET', '/document/receive?limit=100', undefined, asReceiver)).body.documents as Record<string, string>[],
      (documents) => documents.length >= 2, { what: 'both documents in company 1\'s inbox', withinMs: 120_000 });
    expect(listed.map((d) => d.status)).to.deep.equal(['RECEIVED', 'RECEIVED']);
    expect(listed.map((d) => d.documentTypeId).sort()).to.deep.equal([sent[0]!.request.metadata.documentTypeId, sent[1]!.request.metadata.documentTypeId].sort());
    for (const item of listed) {
      const detail = await sapiFetch(svc, 'GET', `/document/receive/${item.documentId}`, undefined, asReceiver);
      expect(detail.status).to.equal(200);
      const original = handles.find((h) => h.xml === detail.body.payload);
      expect(original, 'the inbox payload is byte for byte one of the documents sent').to.not.equal(undefined);
      const ack = await sapiFetch(svc, 'POST', `/document/receive/${item.documentId}/acknowledge`, undefined, asReceiver);
      expect(ack.status).to.equal(200);
      expect(ack.body).to.include({ documentId: item.documentId, status: 'ACKNOWLEDGED' });
    }

    // receiver, native: inbound invoices from the UBL (source peppol), invoice.received naming the handles
    const inbound = await eventually(async () => (await svc.call('GET', `/companies/${to.id}/invoices?page_size=100`)).body.items as { id: string; source: string; peppol_message_id?: string }[],
      (items) => items.filter((i) => i.source === 'peppol').length >= 2, { what: 'two native inbound invoices' });
    expect(inbound.filter((i) => i.source === 'peppol')).to.have.length(2);
    const received = await eventually(async () => hooks.arrivals.map((a) => JSON.parse(a.rawBody.toString()) as { event?: string; data: { provider_document_id: string | null; message_id: string } }).filter((b) => b.event === 'invoice.received'),
      (all) => all.length >= 2, { what: 'invoice.received twice', withinMs: 120_000 });
    expect(received.map((r) => r.data.message_id).sort()).to.deep.equal([...messageIds].sort());
    expect(received.map((r) => r.data.provider_document_id).sort()).to.deep.equal(listed.map((d) => d.documentId).sort());
  });
});
