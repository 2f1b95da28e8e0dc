import { expect } from 'chai';
import { CREDIT_NOTE_DOCUMENT_TYPE_ID } from '../../src/modules/delivery/peppol/identifiers.ts';
import { sapiDocumentStream } from '../../events/sapi-documents.ts';
import { randomSandboxIdentity } from '../../src/demo/identifiers.ts';
import { sapiDocumentIdByMessage } from '../../projections/sapi-documents/queries.ts';
import { eventually } from '../support/poll.ts';
import { sapiError, sapiTestClient, type SapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest, sha256Hex, ublBetween } from './support/send.ts';

describe('SAPI-SK send (POST /sapi/document/send) and status', function () {
  this.timeout(600_000);
  let svc: TestService;
  let client: SapiTestClient;
  let receiver: SapiTestClient;
  let xml: string;
  let sender: string;
  let buyer: string;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator(); // the rule sets load once, before any send is timed
    client = await sapiTestClient(svc, 0);
    receiver = await sapiTestClient(svc, 1);
    sender = client.participant_id;
    buyer = receiver.participant_id;
    xml = (await ublBetween(svc, { companyId: svc.demo.companies[0]!.id }, svc.demo.companies[1]!)).xml;
  });
  after(async () => svc?.close());

  const send = (body: unknown, headers: Record<string, string> = {}, as: SapiTestClient = client) =>
    as.call('POST', '/document/send', body, { 'idempotency-key': newKey(), ...headers });
  /**
   * Building these bodies blocks this process (the service's too) for seconds on a busy machine:
   * the service may close the kept-alive connection just as the client reuses it. A reset before
   * any answer is that stale connection, not the service's answer: the request goes once more.
   */
  const onLiveConnection = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      if (cause?.code !== 'ECONNRESET') throw error;
      return request();
    }
  };
  const refused = async (response: Promise<{ status: number; body: any; headers: Headers }>, status: number, code: string, field?: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const answer = await response;
    expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
    const error = sapiError(answer);
    expect(error.code).to.equal(code);
    if (field) expect(error.details.map((d) => d.field), JSON.stringify(error.details)).to.include(field);
    return error;
  };

  it('accepts a valid Invoice from company 0 to company 1: 202, then SENT and fs ACKNOWLEDGED, with no mirror invoice of the sender', async () => {
    const invoicesBefore = (await svc.call('GET', `/companies/${svc.demo.companies[0]!.id}/invoices`)).body.total as number;
    const request = { ...sendRequest(xml, sender, buyer, { documentId: 'FA-2026-0001' }), checksum: sha256Hex(xml), payloadEncoding: 'UTF-8' };
    const answer = await send(request);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    expect(answer.body.providerDocumentId).to.match(/^svc_sapi_doc_[0-9a-f]{32}$/);
    expect(answer.body.status).to.equal('ACCEPTED');
    expect(Date.parse(answer.body.receivedAt)).to.be.a('number').and.not.NaN;
    expect(Date.parse(answer.body.timestamp)).to.be.a('number').and.not.NaN;
    const id = answer.body.providerDocumentId as string;

    // read-your-writes: the status right after the 202 finds it
    const first = await client.call('GET', `/document/status/${id}`);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.include({ providerDocumentId: id, clientDocumentId: 'FA-2026-0001', direction: 'outbound' });
    expect(['ACCEPTED', 'PROCESSING', 'SENT']).to.include(first.body.status);
    expect(first.body.fs.reportDeadline).to.equal('2026-11-25'); // IssueDate 2026-11-20 + 5 days

    const done = await eventually(async () => (await client.call('GET', `/document/status/${id}`)).body,
      (s) => s.status === 'SENT' && s.fs.status === 'ACKNOWLEDGED', { what: 'SENT and fs ACKNOWLEDGED', withinMs: 60_000 });
    expect(done.peppolMessageId).to.match(/^[0-9a-f-]{36}$/);
    expect(done.fs.submissionId).to.be.a('string');
    expect(done.fs.acknowledgedAt).to.be.a('string');
    expect(done.fs.errorMessage).to.equal(null);
    expect(Object.keys(done).sort()).to.deep.equal(['clientDocumentId', 'direction', 'fs', 'mls', 'peppolMessageId', 'providerDocumentId', 'status', 'timestamp', 'updatedAt'].sort());

    // the FS verdict carries what a c5_submission webhook needs
    const events = await svc.services.store.readStream(sapiDocumentStream(id.slice('svc_sapi_doc_'.length).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')));
    // the receiving Access Point's MLS lands on the stream whenever it comes back (status-mls.test.ts)
    expect(events.map((e) => e.type).filter((t) => t !== 'SapiDocumentMlsReceived')).to.deep.equal(['SapiDocumentAccepted', 'SapiDocumentProcessing', 'SapiDocumentSent', 'SapiFsSubmitted', 'SapiFsAcknowledged']);
    const ack = events.find((e) => e.type === 'SapiFsAcknowledged')!.data as Record<string, unknown>;
    expect(ack).to.include({ provider_document_id: id, organisation_id: svc.demo.organisation_id, company_id: svc.demo.companies[0]!.id, direction: 'sent', reporter_role: 'C2', mls_response_code: 'AP' });
    expect(ack.invoice_number).to.be.a('string').and.not.equal('');
    expect(ack.tdd_uuid).to.be.a('string');
    const accepted = events[0]!.data as { payload: string; payload_sha256: string; document_id: string };
    expect(await sapiDocumentIdByMessage(svc.services.readModels, done.peppolMessageId)).to.equal(accepted.document_id);
    expect(accepted.payload).to.equal(xml);
    expect(accepted.payload_sha256).to.equal(sha256Hex(xml));

    // the filing is a C2 TDD; the buyer received the invoice natively; the sender has no new invoice
    const filed = await svc.sandbox.fs.filed();
    expect(filed.some((f) => f.reporter_role === 'C2' && f.tdd.includes(String(ack.tdd_uuid)))).to.equal(true);
    const inbound = async () => ((await svc.call('GET', `/companies/${svc.demo.companies[1]!.id}/invoices`)).body.items as { source: string }[]).filter((i) => i.source === 'peppol');
    await eventually(inbound, (items) => items.length > 0, { what: "company 1's inbound copy" });
    expect((await svc.call('GET', `/companies/${svc.demo.companies[0]!.id}/invoices`)).body.total).to.equal(invoicesBefore);
  });

  it('needs both headers: a missing Idempotency-Key or X-Peppol-Participant-Id is SAPI-VAL-001 naming it', async () => {
    const body = sendRequest(xml, sender, buyer);
    await refused(client.call('POST', '/document/send', body), 400, 'SAPI-VAL-001', 'Idempotency-Key');
    await refused(client.call('POST', '/document/send', body, { 'idempotency-key': newKey(), 'x-peppol-participant-id': '' }), 400, 'SAPI-VAL-001', 'X-Peppol-Participant-Id');
    await refused(client.call('POST', '/document/send', body, { 'idempotency-key': 'x'.repeat(256) }), 400, 'SAPI-VAL-001', 'Idempotency-Key');
  });

  it("refuses a participant other than the credentials' in the header or in metadata.senderParticipantId: SAPI-AUTH-PARTICIPANT", async () => {
    await refused(send(sendRequest(xml, sender, buyer), { 'x-peppol-participant-id': buyer }), 403, 'SAPI-AUTH-PARTICIPANT', 'X-Peppol-Participant-Id');
    await refused(send(sendRequest(xml, buyer, sender)), 403, 'SAPI-AUTH-PARTICIPANT', 'metadata.senderParticipantId');
  });

  it('refuses a token without document:send: SAPI-AUTH-SCOPE', async () => {
    const inboxOnly = await sapiTestClient(svc, 0, { scopes: ['document:receive'] });
    await refused(send(sendRequest(xml, sender, buyer), {}, inboxOnly), 403, 'SAPI-AUTH-SCOPE');
    await refused(inboxOnly.call('GET', '/document/status/svc_sapi_doc_00000000000000000000000000000000'), 403, 'SAPI-AUTH-SCOPE');
  });

  it('checks the body: payloadFormat XML only, payloadEncoding UTF-8 only, payload at most 10 MB, metadata complete', async () => {
    await refused(send({ ...sendRequest(xml, sender, buyer), payloadFormat: 'JSON' }), 400, 'SAPI-VAL-001', 'body.payloadFormat');
    await refused(send({ ...sendRequest(xml, sender, buyer), payloadEncoding: 'ISO-8859-2' }), 400, 'SAPI-VAL-001', 'payloadEncoding');
    const { metadata, ...rest } = sendRequest(xml, sender, buyer);
    const { documentId: _omitted, ...incomplete } = metadata;
    void _omitted;
    await refused(send({ ...rest, metadata: incomplete }), 400, 'SAPI-VAL-001', 'body.metadata.documentId');
    // 10 MB + 1 byte of UTF-8 (the JSON body is within the route's limit, the payload is not)
    const big = xml.replace('</Invoice>', `<!--${'x'.repeat(10 * 1024 * 1024 - Buffer.byteLength(xml) + 1 - 7)}--></Invoice>`);
    expect(Buffer.byteLength(big)).to.equal(10 * 1024 * 1024 + 1);
    const error = await refused(send(sendRequest(big, sender, buyer)), 400, 'SAPI-VAL-001', 'payload');
    expect(error.details[0]!.issue).to.include('10485760');
  });

  it('refuses a checksum that is not the SHA-256 of the payload bytes: SAPI-VAL-CHECKSUM', async () => {
    await refused(send({ ...sendRequest(xml, sender, buyer), checksum: sha256Hex(`${xml} `) }), 400, 'SAPI-VAL-CHECKSUM', 'checksum');
    await refused(send({ ...sendRequest(xml, sender, buyer), checksum: sha256Hex(xml).toUpperCase() }), 400, 'SAPI-VAL-001', 'body.checksum');
  });

  it('reads the XML safely: not XML, a DOCTYPE, or a root other than Invoice/CreditNote is SAPI-VAL-001 on payload', async () => {
    await refused(send(sendRequest('not xml at all', sender, buyer)), 400, 'SAPI-VAL-001', 'payload');
    const doctype = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x "boom">]>${xml.replace(/^<\?xml[^>]*\?>\s*/, '')}`;
    const error = await refused(send(sendRequest(doctype, sender, buyer)), 400, 'SAPI-VAL-001', 'payload');
    expect(error.details[0]!.issue).to.include('XML-DOCTYPE');
    const order = '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>';
    expect((await refused(send(sendRequest(order, sender, buyer)), 400, 'SAPI-VAL-001', 'payload')).message).to.equal('unsupported document root');
  });

  it('needs the metadata to agree with the UBL: an Invoice declared as CreditNote, another receiver or process is SAPI-VAL-001 naming the field', async () => {
    const declared = sendRequest(xml, sender, buyer);
    await refused(send({ ...declared, metadata: { ...declared.metadata, documentTypeId: CREDIT_NOTE_DOCUMENT_TYPE_ID } }), 400, 'SAPI-VAL-001', 'metadata.documentTypeId');
    await refused(send(sendRequest(xml, sender, '9950:sk0000000000svctest')), 400, 'SAPI-VAL-001', 'metadata.receiverParticipantId');
    await refused(send({ ...declared, metadata: { ...declared.metadata, processId: 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0' } }), 400, 'SAPI-VAL-001', 'metadata.processId');
  });

  it('refuses a document with a fatal validation finding: SAPI-VAL-001, one detail per finding (rule and location)', async () => {
    // the payable amount no longer adds up (BR-CO-16), the currency is not a code (BR-CL-04 …)
    const broken = xml.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]+/, '$1999999.99');
    expect(broken).to.not.equal(xml);
    const error = await refused(send(sendRequest(broken, sender, buyer)), 400, 'SAPI-VAL-001');
    expect(error.details.length).to.be.greaterThan(0);
    expect(error.details.map((d) => d.field)).to.include('BR-CO-16');
    expect(error.details.find((d) => d.field === 'BR-CO-16')!.issue).to.include('(at ');
  });

  it("answers SAPI-DOC-NOT-FOUND for an unknown document and for another client's; the status needs the participant header", async () => {
    await refused(client.call('GET', '/document/status/svc_sapi_doc_00000000000000000000000000000000'), 404, 'SAPI-DOC-NOT-FOUND');
    await refused(client.call('GET', '/document/status/nonsense'), 404, 'SAPI-DOC-NOT-FOUND');
    const mine = await send(sendRequest(xml, sender, buyer));
    expect(mine.status, JSON.stringify(mine.body)).to.equal(202);
    await refused(receiver.call('GET', `/document/status/${mine.body.providerDocumentId}`), 404, 'SAPI-DOC-NOT-FOUND');
    await refused(client.call('GET', `/document/status/${mine.body.providerDocumentId}`, undefined, { 'x-peppol-participant-id': '' }), 400, 'SAPI-VAL-001', 'X-Peppol-Participant-Id');
  });

  it('keeps the answer under its key: the same body again is the same document, another body SAPI-IDEMPOTENCY-CONFLICT, a refusal is repeated', async () => {
    const key = newKey();
    const body = sendRequest(xml, sender, buyer);
    const first = await client.call('POST', '/document/send', body, { 'idempotency-key': key });
    expect(first.status).to.equal(202);
    // key order and whitespace do not make another body; the payload is compared by its bytes
    const reordered = JSON.stringify({ payloadFormat: 'XML', payload: body.payload, metadata: { ...body.metadata } }, null, 2);
    const again = await client.call('POST', '/document/send', reordered, { 'idempotency-key': key });
    expect(again.status).to.equal(202);
    expect(again.body).to.deep.equal(first.body);
    await refused(client.call('POST', '/document/send', { ...body, metadata: { ...body.metadata, documentId: 'OTHER' } }, { 'idempotency-key': key }), 409, 'SAPI-IDEMPOTENCY-CONFLICT', 'Idempotency-Key');
    // the same key on another client is another key
    const other = await sapiTestClient(svc, 1);
    const theirs = await other.call('POST', '/document/send', sendRequest(xml, other.participant_id, sender), { 'idempotency-key': key });
    expect(theirs.status).to.not.equal(409);

    const badKey = newKey();
    const bad = sendRequest('<broken', sender, buyer);
    const refusal = await refused(client.call('POST', '/document/send', bad, { 'idempotency-key': badKey }), 400, 'SAPI-VAL-001', 'payload');
    const repeated = await refused(client.call('POST', '/document/send', bad, { 'idempotency-key': badKey }), 400, 'SAPI-VAL-001', 'payload');
    expect(repeated.details).to.deep.equal(refusal.details);
    expect(repeated.correlation_id).to.not.equal(refusal.correlation_id);
  });

  it('documents send (with its two headers) and status in /sapi/openapi.json', async () => {
    const doc = (await (await fetch(`${svc.root}/sapi/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    const paths = Object.keys(doc.paths);
    const send = paths.find((p) => p.endsWith('/document/send'));
    const status = paths.find((p) => p.endsWith('/document/status/{providerDocumentId}'));
    expect(send, paths.join(' ')).to.be.a('string');
    expect(status, paths.join(' ')).to.be.a('string');
    expect((doc.paths[send!]!.post!.parameters ?? []).map((p) => p.name)).to.include.members(['Idempotency-Key', 'X-Peppol-Participant-Id']);
  });

  it('sends a CreditNote declared as one: SENT and fs ACKNOWLEDGED', async () => {
    const company = svc.demo.companies[0]!.id;
    const { invoiceId } = await ublBetween(svc, { companyId: company }, svc.demo.companies[1]!);
    expect((await svc.call('POST', `/companies/${company}/invoices/${invoiceId}/mark-sent`, {})).status).to.equal(200);
    const version = (await svc.call('GET', `/companies/${company}/invoices/${invoiceId}`)).body.version as number;
    const credited = await svc.call('POST', `/companies/${company}/invoices/${invoiceId}/credit-notes`, { reason: 'full_reversal' }, { 'if-match': `"${version}"` });
    expect(credited.status, JSON.stringify(credited.body)).to.equal(201);
    const creditNote = await (await fetch(`${svc.api}/companies/${company}/invoices/${credited.body.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } })).text();
    expect(creditNote).to.include('<CreditNote');
    // declared as an Invoice it is refused; as a CreditNote it goes
    await refused(send(sendRequest(creditNote, sender, buyer)), 400, 'SAPI-VAL-001', 'metadata.documentTypeId');
    const answer = await send(sendRequest(creditNote, sender, buyer, { root: 'CreditNote' }));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    await eventually(async () => (await client.call('GET', `/document/status/${answer.body.providerDocumentId}`)).body,
      (s) => s.status === 'SENT' && s.fs.status === 'ACKNOWLEDGED', { what: 'the credit note SENT and fs ACKNOWLEDGED', withinMs: 60_000 });
  });

  it('a receiver the network does not know fails the Peppol leg for good: FAILED, and nothing is filed with FS', async () => {
    const stranger = { name: 'Neznámy s.r.o.', ...randomSandboxIdentity() };
    const { xml: toStranger } = await ublBetween(svc, { companyId: svc.demo.companies[0]!.id }, stranger);
    const answer = await send(sendRequest(toStranger, sender, stranger.peppol_id));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const failed = await eventually(async () => (await client.call('GET', `/document/status/${answer.body.providerDocumentId}`)).body,
      (s) => s.status === 'FAILED', { what: 'FAILED' });
    expect(failed.fs).to.include({ status: 'NOT_SUBMITTED', submissionId: null, errorMessage: null });
  });

  it('takes a JSON body well above 10 MB (escaping grows it), and refuses one beyond 31 MB as SAPI-PAYLOAD-TOO-LARGE', async () => {
    // 3,300,000 × "č": 6.6 MB of UTF-8, written as \u010d it is 19.8 MB of JSON: past the body limit into the payload checks
    const escaped = JSON.stringify(sendRequest('č'.repeat(3_300_000), sender, buyer)).replace(/č/g, '\\u010d');
    expect(escaped.length).to.be.greaterThan(19_000_000);
    // made before the first request: building 32 MB (and its checksum) blocks this process, the
    // service's too, for seconds on a busy machine, and the kept-alive connection would expire
    // under the client's feet (a reset, not the service's answer)
    const tooLarge = JSON.stringify(sendRequest('x'.repeat(32 * 1024 * 1024), sender, buyer));
    const error = await refused(onLiveConnection(() => send(escaped)), 400, 'SAPI-VAL-001', 'payload');
    expect(error.details[0]!.issue).to.include('XML');
    await refused(onLiveConnection(() => send(tooLarge)), 413, 'SAPI-PAYLOAD-TOO-LARGE');
  });
});
