/**
 * Two services as two Peppol Access Points on loopback (issue 38, items 1, 2 and 6): each runs
 * PEPPOL_NETWORK=as4 with its own Access Point certificate from one test PKI; instance 1 finds
 * instance 2 through its static routing table. An invoice sent from instance 1's native door
 * travels as AS4 to instance 2's POST /as4 and takes its inbound path; then refusals through
 * real HTTP at /as4.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { boundedFetch } from '../../../src/modules/delivery/index.ts';
import { buildUserMessage } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID, MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { eventually } from '../../support/poll.ts';
import { startTestPki, type TestCertificate, type TestPki } from '../../support/peppol-pki.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { bearer, requestToken, sapiFetch } from '../../sapi/auth-support.ts';
import { newKey, sendRequest, sha256Hex } from '../../sapi/support/send.ts';
import { parseSmpParticipantId } from '../../../src/modules/delivery/peppol/smp/participant-id.ts';
import { smlHostName } from '../../../src/modules/delivery/peppol/smp/sml-name.ts';
import { smpNaptr, startFakeDns, type FakeDns } from '../smp/fake-dns.ts';
import { startFakeSmp, type FakeSmp } from '../smp/fake-smp.ts';
import { BILLING, CREDIT_NOTE, INVOICE, groupPath, metadataPath, serviceGroup, signedServiceMetadata } from '../smp/smp-fixtures.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';

const MAX_BODY = 1024 * 1024;
const BODY_TIMEOUT_MS = 3_000;

/** A raw request: headers, then what `write` sends (chunked, no Content-Length); resolves with the status and body. */
function rawPost(url: string, write: (req: http.ClientRequest) => void): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=x', 'transfer-encoding': 'chunked' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    write(req);
  });
}

type Invoice = { id: string; status: string; invoice_number: string; peppol_delivery: { status: string; error: string | null } | null };

describe('AS4 between two Access Points on loopback (PEPPOL_NETWORK=as4)', function () {
  this.timeout(300_000);
  let pki: TestPki;
  let ap1: TestCertificate;
  let ap2: TestCertificate;
  let one: TestService;
  let two: TestService;
  let seller: string;
  let buyer: { id: string; peppol_id: string };
  let sentInvoice: Invoice;
  /** the invoice instance 2 sent to instance 1, and the webhooks instance 1 sends */
  let backInvoice: Invoice;
  let hooks: WebhookReceiver;

  let dns: FakeDns;
  let smp: FakeSmp;
  const accessPoint = async (certificate: TestCertificate, staticEndpoints?: string) => {
    // 1 MiB: far above these messages, and a bound a test can pass
    const config = loadConfig({ ...pki.env(certificate), AS4_MAX_BODY_BYTES: String(MAX_BODY), AS4_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
    return startTestService({
      peppol: config.peppol,
      peppolRevocationFetch: boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: true }),
      // the static table first; else the SML (a DNS responder here) and the SMP, both on loopback
      delivery: {
        smlZone: ZONE, participantDirectory: config.delivery.participantDirectory,
        discovery: { ...config.delivery.discovery, staticEndpointsFile: staticEndpoints, dnsServers: [dns.server], timeoutMs: 2_000, smpCacheMs: 0, allowLoopback: true },
      },
    });
  };
  const inboundCopies = async (number: string) =>
    ((await two.call('GET', `/companies/${buyer.id}/invoices?q=${number}`)).body.items as { source: string }[]).filter((i) => i.source === 'peppol');
  const postAs4 = (built: { contentType: string; body: Buffer }) =>
    fetch(`${two.root}/as4`, { method: 'POST', headers: { 'content-type': built.contentType }, body: new Uint8Array(built.body) });

  before(async () => {
    pki = await startTestPki();
    dns = await startFakeDns();
    smp = await startFakeSmp();
    ap1 = await pki.issue('ap', { cn: 'POP000001' });
    ap2 = await pki.issue('ap', { cn: 'POP000002' });
    two = await accessPoint(ap2);
    const company = two.demo.companies[0]!;
    buyer = { id: company.id, peppol_id: company.peppol_id };
    const table = path.join(pki.dir, 'static-endpoints.json');
    // instance 2's company, and instance 2's MLS address (the MLS for what instance 2 sends goes there)
    const toTwo = { url: `${two.root}/as4`, certificate: ap2.files.cert };
    writeFileSync(table, JSON.stringify({ [buyer.peppol_id]: toTwo, '0242:000002': toTwo }));
    one = await accessPoint(ap1, table);
    seller = one.demo.companies[0]!.id;
    // instance 1's MLS address, found by instance 2 through the SML and a signed SMP entry
    const mlsSigner = await pki.issue('smp');
    dns.records.set(smlHostName(parseSmpParticipantId('0242:000001'), ZONE), [smpNaptr(smp.url)]);
    smp.routes.set(groupPath('0242:000001'), { body: serviceGroup(smp.url, '0242:000001', [MLS_DOCUMENT_TYPE_ID]) });
    smp.routes.set(metadataPath('0242:000001', MLS_DOCUMENT_TYPE_ID), {
      body: signedServiceMetadata('0242:000001', MLS_DOCUMENT_TYPE_ID, [{ process: MLS_PROCESS_ID, endpoints: [{ url: `${one.root}/as4`, certificate: Buffer.from(ap1.certificate.rawData).toString('base64') }] }], {
        certificate: mlsSigner.node, certificatePem: mlsSigner.pem, privateKeyPem: mlsSigner.keyPem, base64: Buffer.from(mlsSigner.certificate.rawData).toString('base64'),
      }),
    });
    await one.services.validator(); // the rule sets load first: minutes on a loaded machine
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await dns?.close();
    await smp?.close();
    await hooks?.close();
    await pki?.close();
  });

  it('an invoice from the native door of instance 1 reaches the inbound path of instance 2, and is sent there', async () => {
    const customer = (await one.call('POST', `/companies/${seller}/customers`, {
      name: two.demo.companies[0]!.name, vat_id: two.demo.companies[0]!.vat_id, ico: two.demo.companies[0]!.ico, dic: two.demo.companies[0]!.dic, peppol_id: buyer.peppol_id,
    })).body.id as string;
    const created = await one.call('POST', `/companies/${seller}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer,
      lines: [{ item_name: 'Servis cez AS4', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    });
    expect(created.status).to.equal(201);
    const sent = await one.call('POST', `/companies/${seller}/invoices/${created.body.id}/send`);
    expect(sent.status).to.equal(202);
    sentInvoice = await eventually(
      async () => (await one.call('GET', `/companies/${seller}/invoices/${created.body.id}`)).body as Invoice,
      (i) => i.peppol_delivery?.status === 'sent' || i.peppol_delivery?.status === 'delivered' || ['failed', 'rejected'].includes(i.status),
      { withinMs: 120_000 },
    );
    expect(sentInvoice.peppol_delivery, JSON.stringify(sentInvoice.peppol_delivery)).to.deep.include({ error: null });
    expect(sentInvoice.peppol_delivery!.status).to.be.oneOf(['sent', 'delivered']);
    const copies = await eventually(() => inboundCopies(sentInvoice.invoice_number), (c) => c.length > 0);
    expect(copies).to.have.length(1);
  });

  it('POST /tools/peppol-check asks the same discovery the sending does: the static entry, then the SML and the SMP', async () => {
    const known = await one.call('POST', '/tools/peppol-check', { participant_id: buyer.peppol_id });
    expect(known.status).to.equal(200);
    expect(known.body).to.deep.include({ registered: true, can_receive_invoice: true, source: 'smp' });
    // an id neither the static table nor the SML knows
    const unknown = await two.call('POST', '/tools/peppol-check', { participant_id: '0245:9999999999' });
    expect(unknown.status).to.equal(200);
    expect(unknown.body).to.deep.include({ registered: false, source: 'smp' });
  });

  it('a credit note of that invoice travels the same way, and arrives as a credit note (381)', async () => {
    const read = async () => (await one.call('GET', `/companies/${seller}/invoices/${sentInvoice.id}`)).body as Invoice & { version: number };
    await eventually(read, (i) => i.status === 'fs_acknowledged', { withinMs: 120_000 });
    // a late delivery status may still move the version: reload on 412, as a client does
    const queued = await eventually(async () => {
      const current = await read();
      return one.call('POST', `/companies/${seller}/invoices/${sentInvoice.id}/credit-notes`, { reason: 'full_reversal', note: 'storno' }, { 'if-match': `"${current.version}"` });
    }, (answer) => answer.status !== 412);
    expect(queued.status, JSON.stringify(queued.body)).to.equal(202);
    const number = (queued.body as Invoice).invoice_number;
    const inbound = await eventually(
      async () => ((await two.call('GET', `/companies/${buyer.id}/invoices?q=${number}`)).body.items as { source: string; invoice_type: string }[]).filter((i) => i.source === 'peppol'),
      (c) => c.length > 0,
      { withinMs: 120_000 },
    );
    expect(inbound).to.have.length(1);
    expect(inbound[0]!.invoice_type).to.equal('381');
  });

  it('a UBL document from the SAPI-SK door of instance 1 lands in the SAPI-SK inbox of instance 2', async () => {
    const from = one.demo.companies[0]!;
    const to = two.demo.companies[0]!;
    const asSender = { ...bearer((await requestToken(one, 0)).body.access_token as string), 'x-peppol-participant-id': from.sapi.participant_id };
    const asReceiver = { ...bearer((await requestToken(two, 0)).body.access_token as string), 'x-peppol-participant-id': to.sapi.participant_id };
    // the service's own UBL of the invoice to that buyer (what an ERP would send)
    const xml = await (await fetch(`${one.api}/companies/${seller}/invoices/${sentInvoice.id}/ubl`, { headers: { 'x-api-key': one.demo.api_key } })).text();
    const inboxOf = async () => (await sapiFetch(two, 'GET', '/document/receive?limit=100', undefined, asReceiver)).body.documents as Record<string, string>[];
    // the invoice and the credit note of the tests before arrived in this inbox too: counted once
    // its read model shows both, or a late one would be taken for this document
    const before = (await eventually(inboxOf, (documents) => documents.length >= 2, { withinMs: 120_000 })).length;
    const request = sendRequest(xml, from.peppol_id, to.peppol_id, { documentId: 'ERP-AS4-1' });
    const accepted = await sapiFetch(one, 'POST', '/document/send', { ...request, checksum: sha256Hex(xml) }, { ...asSender, 'idempotency-key': newKey() });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const status = await eventually(async () => (await sapiFetch(one, 'GET', `/document/status/${accepted.body.providerDocumentId}`, undefined, asSender)).body,
      (s) => s.status === 'SENT' || s.status === 'FAILED' || s.status === 'REJECTED', { withinMs: 120_000 });
    expect(status.status, JSON.stringify(status)).to.equal('SENT');
    const inbox = await eventually(inboxOf, (documents) => documents.length > before, { withinMs: 120_000 });
    expect(inbox).to.have.length(before + 1);
    expect(inbox.at(-1)).to.include({ senderParticipantId: from.peppol_id, receiverParticipantId: to.peppol_id, status: 'RECEIVED' });
  });

  it('the other way: an invoice from instance 2 reaches instance 1, found through the SML and the signed SMP entry', async () => {
    const a = one.demo.companies[0]!;
    const smpSigner = await pki.issue('smp');
    dns.records.set(smlHostName(parseSmpParticipantId(a.peppol_id), ZONE), [smpNaptr(smp.url)]);
    // instance 1's company receives invoices and credit notes, both at instance 1's /as4
    smp.routes.set(groupPath(a.peppol_id), { body: serviceGroup(smp.url, a.peppol_id, [INVOICE, CREDIT_NOTE]) });
    for (const documentType of [INVOICE, CREDIT_NOTE]) {
      smp.routes.set(metadataPath(a.peppol_id, documentType), {
        body: signedServiceMetadata(a.peppol_id, documentType, [{ process: BILLING, endpoints: [{ url: `${one.root}/as4`, certificate: Buffer.from(ap1.certificate.rawData).toString('base64') }] }], {
          certificate: smpSigner.node, certificatePem: smpSigner.pem, privateKeyPem: smpSigner.keyPem, base64: Buffer.from(smpSigner.certificate.rawData).toString('base64'),
        }),
      });
    }
    await two.services.validator();
    hooks = await WebhookReceiver.start();
    const subscribed = await one.call('POST', '/connect/webhooks', { url: hooks.url(), description: 'inbound over AS4', events: 'invoice.received' });
    expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(201);
    const customer = (await two.call('POST', `/companies/${buyer.id}/customers`, { name: a.name, vat_id: a.vat_id, ico: a.ico, dic: a.dic, peppol_id: a.peppol_id })).body.id as string;
    const created = await two.call('POST', `/companies/${buyer.id}/invoices`, {
      issue_date: '2026-11-21', due_date: '2026-12-05', customer_id: customer,
      lines: [{ item_name: 'Spätná služba', quantity: '2', unit_price: '50.00', vat_rate: '23' }],
    });
    expect(created.status).to.equal(201);
    expect((await two.call('POST', `/companies/${buyer.id}/invoices/${created.body.id}/send`)).status).to.equal(202);
    const invoice = await eventually(
      async () => (await two.call('GET', `/companies/${buyer.id}/invoices/${created.body.id}`)).body as Invoice,
      (i) => i.peppol_delivery?.status === 'sent' || i.peppol_delivery?.status === 'delivered' || ['failed', 'rejected'].includes(i.status),
      { withinMs: 120_000 },
    );
    expect(invoice.peppol_delivery, JSON.stringify(invoice.peppol_delivery)).to.deep.include({ error: null });
    backInvoice = invoice;
    const copies = await eventually(
      async () => ((await one.call('GET', `/companies/${a.id}/invoices?q=${invoice.invoice_number}`)).body.items as { id: string; source: string }[]).filter((i) => i.source === 'peppol'),
      (c) => c.length > 0,
    );
    expect(copies).to.have.length(1);
    // and instance 1 tells its client, as for any inbound invoice
    const webhook = await eventually(async () => hooks.arrivals.find((h) => h.rawBody.toString('utf8').includes(copies[0]!.id)), (h) => h !== undefined, { withinMs: 60_000 });
    expect(webhook!.headers['x-webhook-event']).to.equal('invoice.received');
    expect(JSON.parse(webhook!.rawBody.toString('utf8')).data).to.include({ invoice_id: copies[0]!.id, invoice_number: invoice.invoice_number, source: 'peppol' });
  });

  it('the other way, a credit note: instance 2 credits that invoice and instance 1 receives it as a 381', async () => {
    const a = one.demo.companies[0]!;
    const read = async () => (await two.call('GET', `/companies/${buyer.id}/invoices/${backInvoice.id}`)).body as Invoice & { version: number };
    await eventually(read, (i) => i.status === 'fs_acknowledged', { withinMs: 120_000 });
    const queued = await eventually(async () => {
      const current = await read();
      return two.call('POST', `/companies/${buyer.id}/invoices/${backInvoice.id}/credit-notes`, { reason: 'full_reversal', note: 'storno späť' }, { 'if-match': `"${current.version}"` });
    }, (answer) => answer.status !== 412);
    expect(queued.status, JSON.stringify(queued.body)).to.equal(202);
    const number = (queued.body as Invoice).invoice_number;
    const inbound = await eventually(
      async () => ((await one.call('GET', `/companies/${a.id}/invoices?q=${number}`)).body.items as { source: string; invoice_type: string }[]).filter((i) => i.source === 'peppol'),
      (c) => c.length > 0,
      { withinMs: 120_000 },
    );
    expect(inbound).to.have.length(1);
    expect(inbound[0]!.invoice_type).to.equal('381');
  });

  it('the other way, SAPI-SK: a UBL document from the SAPI-SK door of instance 2 lands in the SAPI-SK inbox of instance 1', async () => {
    const from = two.demo.companies[0]!;
    const to = one.demo.companies[0]!;
    const asSender = { ...bearer((await requestToken(two, 0)).body.access_token as string), 'x-peppol-participant-id': from.sapi.participant_id };
    const asReceiver = { ...bearer((await requestToken(one, 0)).body.access_token as string), 'x-peppol-participant-id': to.sapi.participant_id };
    const xml = await (await fetch(`${two.api}/companies/${buyer.id}/invoices/${backInvoice.id}/ubl`, { headers: { 'x-api-key': two.demo.api_key } })).text();
    const inboxOf = async () => (await sapiFetch(one, 'GET', '/document/receive?limit=100', undefined, asReceiver)).body.documents as Record<string, string>[];
    // the invoice and the credit note that came before are in this inbox: counted once both show
    const before = (await eventually(inboxOf, (documents) => documents.length >= 2, { withinMs: 120_000 })).length;
    const request = sendRequest(xml, from.peppol_id, to.peppol_id, { documentId: 'ERP-AS4-BACK-1' });
    const accepted = await sapiFetch(two, 'POST', '/document/send', { ...request, checksum: sha256Hex(xml) }, { ...asSender, 'idempotency-key': newKey() });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const status = await eventually(async () => (await sapiFetch(two, 'GET', `/document/status/${accepted.body.providerDocumentId}`, undefined, asSender)).body,
      (st) => st.status === 'SENT' || st.status === 'FAILED' || st.status === 'REJECTED', { withinMs: 120_000 });
    expect(status.status, JSON.stringify(status)).to.equal('SENT');
    const inbox = await eventually(inboxOf, (documents) => documents.length > before, { withinMs: 120_000 });
    expect(inbox).to.have.length(before + 1);
    expect(inbox.at(-1)).to.include({ senderParticipantId: from.peppol_id, receiverParticipantId: to.peppol_id, status: 'RECEIVED' });
  });

  /** A UserMessage as another Access Point would send it: the sent invoice's UBL in a new SBDH. */
  const messageFrom = async (signer: TestCertificate, messageId: string) => {
    const ubl = await (await fetch(`${one.api}/companies/${seller}/invoices/${sentInvoice.id}/ubl`, { headers: { 'x-api-key': one.demo.api_key } })).text();
    const sender = one.demo.companies[0]!.peppol_id;
    const sbdh = wrapInSbdh({
      sender, receiver: buyer.peppol_id, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID,
      instanceId: messageId.split('@')[0]!, createdAt: new Date(), countryC1: 'SK', document: ubl,
    });
    return buildUserMessage({
      messageId, timestamp: new Date(), conversationId: randomUUID(), processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
      originalSender: sender, finalRecipient: buyer.peppol_id, sbdh,
    }, { signingKey: keyOf(signer), signingCert: signer.node, receiverCert: ap2.node });
  };

  it('a message signed by a certificate of another CA: EBMS:0101, and nothing is created', async () => {
    const stranger = await pki.issue('ap', { cn: 'POP000666', issuer: pki.other });
    const before = (await inboundCopies(sentInvoice.invoice_number)).length;
    const answer = await postAs4(await messageFrom(stranger, `${randomUUID()}@stranger`));
    expect(answer.status).to.equal(200);
    const body = await answer.text();
    expect(body).to.include('EBMS:0101').and.include('FailedAuthentication');
    expect((await inboundCopies(sentInvoice.invoice_number)).length).to.equal(before);
  });

  it('a repeated eb:MessageId gets the same receipt again, and one copy', async () => {
    const before = (await inboundCopies(sentInvoice.invoice_number)).length;
    const messageId = `${randomUUID()}@POP000001`;
    const first = await postAs4(await messageFrom(ap1, messageId));
    expect(first.status).to.equal(200);
    const firstReceipt = await first.text();
    expect(firstReceipt).to.include('Receipt').and.include(messageId);
    // a retry is built anew (new content key, new signature), with the same MessageId
    const again = await postAs4(await messageFrom(ap1, messageId));
    expect(again.status).to.equal(200);
    expect(await again.text()).to.equal(firstReceipt);
    const copies = await eventually(() => inboundCopies(sentInvoice.invoice_number), (c) => c.length > before);
    expect(copies).to.have.length(before + 1);
  });

  it('an eb:MessageId another Access Point used already: EBMS:0004, and that message\'s receipt is not given', async () => {
    const messageId = `${randomUUID()}@POP000001`;
    const first = await postAs4(await messageFrom(ap1, messageId));
    expect(first.status).to.equal(200);
    const receipt = await first.text();
    const other = await pki.issue('ap', { cn: 'POP000003' });
    const answer = await postAs4(await messageFrom(other, messageId));
    const body = await answer.text();
    expect(body).to.include('EBMS:0004').and.include('already used by another Access Point');
    expect(body).not.to.equal(receipt);
    // (its SBDH is the first one's, so the inbound path could not make a second copy either way)
  });

  it('an unknown recipient: EBMS:0004, and nothing is created', async () => {
    const sbdh = wrapInSbdh({
      sender: one.demo.companies[0]!.peppol_id, receiver: '9950:sk2020000004unknown', documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID,
      instanceId: randomUUID(), createdAt: new Date(), countryC1: 'SK',
      document: await (await fetch(`${one.api}/companies/${seller}/invoices/${sentInvoice.id}/ubl`, { headers: { 'x-api-key': one.demo.api_key } })).text(),
    });
    const built = buildUserMessage({
      messageId: `${randomUUID()}@POP000001`, timestamp: new Date(), conversationId: randomUUID(), processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
      originalSender: one.demo.companies[0]!.peppol_id, finalRecipient: '9950:sk2020000004unknown', sbdh,
    }, { signingKey: keyOf(ap1), signingCert: ap1.node, receiverCert: ap2.node });
    const answer = await postAs4(built);
    expect(answer.status).to.equal(200);
    expect(await answer.text()).to.include('EBMS:0004').and.include('unknown recipient');
  });

  it('an SBDH naming another receiver than the signed finalRecipient: EBMS:0004, and nothing is created', async () => {
    const other = two.demo.companies[1]!;
    const before = ((await two.call('GET', `/companies/${other.id}/invoices?q=${sentInvoice.invoice_number}`)).body.items as unknown[]).length;
    const sbdh = wrapInSbdh({
      sender: one.demo.companies[0]!.peppol_id, receiver: other.peppol_id, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID,
      instanceId: randomUUID(), createdAt: new Date(), countryC1: 'SK',
      document: await (await fetch(`${one.api}/companies/${seller}/invoices/${sentInvoice.id}/ubl`, { headers: { 'x-api-key': one.demo.api_key } })).text(),
    });
    const built = buildUserMessage({
      messageId: `${randomUUID()}@POP000001`, timestamp: new Date(), conversationId: randomUUID(), processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
      originalSender: one.demo.companies[0]!.peppol_id, finalRecipient: buyer.peppol_id, sbdh,
    }, { signingKey: keyOf(ap1), signingCert: ap1.node, receiverCert: ap2.node });
    const answer = await postAs4(built);
    expect(answer.status).to.equal(200);
    expect(await answer.text()).to.include('EBMS:0004').and.include('is not the finalRecipient');
    expect(((await two.call('GET', `/companies/${other.id}/invoices?q=${sentInvoice.invoice_number}`)).body.items as unknown[]).length).to.equal(before);
  });

  it('junk (an error signal, 200), a body larger than AS4_MAX_BODY_BYTES (413), or a GET (405): refused with no 5xx', async () => {
    const get = await fetch(`${two.root}/as4`);
    expect(get.status).to.equal(405);
    const junk = await fetch(`${two.root}/as4`, { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=x' }, body: 'not a message' });
    expect(junk.status).to.equal(200);
    expect(await junk.text()).to.include('EBMS:0004');
    const large = await fetch(`${two.root}/as4`, { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=x' }, body: new Uint8Array(MAX_BODY + 1) });
    expect(large.status).to.equal(413);
    expect(await large.text()).to.include('EBMS:0004').and.include('larger than');
  });

  it('a body over the bound with no Content-Length is cut off as it streams: 413', async () => {
    const answer = await rawPost(`${two.root}/as4`, (req) => {
      const chunk = Buffer.alloc(64 * 1024);
      let answered = false;
      const pump = () => {
        while (!answered && !req.destroyed && req.write(chunk));
        if (!answered && !req.destroyed) req.once('drain', pump);
      };
      req.on('response', () => (answered = true));
      pump();
    });
    expect(answer.status).to.equal(413);
    expect(answer.body).to.include('EBMS:0004');
  });

  it('a slow sender is cut off after AS4_BODY_TIMEOUT_MS: 408, no 5xx', async () => {
    const started = Date.now();
    const answer = await rawPost(`${two.root}/as4`, (req) => req.write('--x\r\n'));
    expect(answer.status).to.equal(408);
    expect(answer.body).to.include('EBMS:0004').and.include('did not arrive');
    expect(Date.now() - started).to.be.below(BODY_TIMEOUT_MS + 5_000);
  });
});

const keyOf = (certificate: TestCertificate) => createPrivateKey(certificate.keyPem);
