/**
 * The AS4 receipt kept as proof (issue 38 item 1), through real HTTP between two Access Points on
 * loopback (the set-up of two-access-points.test.ts): once instance 1's invoice is delivered to
 * instance 2, GET …/peppol-receipt on instance 1 gives the receipt instance 2 signed, which an
 * auditor can check on its own: xml-crypto verifies its signature with instance 2's Access Point
 * certificate, and its NonRepudiationInformation answers our eb:MessageId and repeats a digest of
 * each part we signed. An invoice not sent over AS4 has none: `peppol_receipt_not_found`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SignedXml } from 'xml-crypto';
import { boundedFetch } from '../../../src/modules/delivery/index.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { allAt, parseUntrusted, type XmlAttribute } from '../../../src/platform/xml/index.ts';
import { eventually } from '../../support/poll.ts';
import { startTestPki, type TestCertificate, type TestPki } from '../../support/peppol-pki.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { startFakeDns, type FakeDns } from '../smp/fake-dns.ts';
import { bearer, requestToken, sapiFetch } from '../../sapi/auth-support.ts';
import { newKey, sendRequest, sha256Hex } from '../../sapi/support/send.ts';
import { withoutRequestId } from '../../support/request-id.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
const NS = {
  eb: 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/',
  ebbp: 'http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
};

type Invoice = { id: string; status: string; invoice_number: string; peppol_delivery: { status: string; message_id: string | null; error: string | null } | null };

/** What a receipt acknowledges: the message it answers, and each part's reference (read with the service's one safe parser). */
function acknowledged(xml: string) {
  const parsed = parseUntrusted(xml);
  if (!parsed.ok) throw new Error(parsed.finding.message);
  const { doc } = parsed.parsed;
  try {
    const refTo = allAt(doc.root, '//eb:SignalMessage/eb:MessageInfo/eb:RefToMessageId', NS).map((n) => n.content);
    const parts = allAt(doc.root, '//ebbp:NonRepudiationInformation/ebbp:MessagePartNRInformation/ds:Reference', NS).map((reference) => ({
      uri: (allAt(reference, '@URI', NS)[0] as XmlAttribute | undefined)?.value ?? '',
      digest: allAt(reference, 'ds:DigestValue', NS)[0]?.content.trim() ?? '',
    }));
    return { refTo, parts };
  } finally {
    doc.dispose();
  }
}

describe('the AS4 receipt kept on the sent invoice, for an auditor (PEPPOL_NETWORK=as4)', function () {
  this.timeout(300_000);
  let pki: TestPki;
  let dns: FakeDns;
  let ap1: TestCertificate;
  let ap2: TestCertificate;
  let one: TestService;
  let two: TestService;
  let seller: string;
  let customer: string;
  let sentInvoiceId: string;

  const accessPoint = async (certificate: TestCertificate, staticEndpoints?: string) => {
    const defaults = loadConfig({});
    return startTestService({
      peppol: loadConfig(pki.env(certificate)).peppol,
      peppolRevocationFetch: boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: true }),
      delivery: { smlZone: ZONE, discovery: { ...defaults.delivery.discovery, staticEndpointsFile: staticEndpoints, dnsServers: [dns.server], timeoutMs: 2_000, smpCacheMs: 0, allowLoopback: true } },
    });
  };
  const receiptOf = (invoiceId: string, companyId = seller) =>
    fetch(`${one.api}/companies/${companyId}/invoices/${invoiceId}/peppol-receipt`, { headers: { 'x-api-key': one.demo.api_key } });
  const newInvoice = async (item: string) => {
    const created = await one.call('POST', `/companies/${seller}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, lines: [{ item_name: item, quantity: '1', unit_price: '80.00', vat_rate: '23' }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.id as string;
  };

  /** What an auditor checks: the receiver signed it (xml-crypto, instance 2's certificate), and it acknowledges our message and every part we signed. */
  const checkReceipt = (xml: string, as4MessageId: string) => {
    // the signature, checked by another implementation than the codec's, with the receiver's certificate:
    // the ds:Signature alone, with the wsse prefix its KeyInfo inherits declared on it (as as4-independent-check does)
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(xml)?.[0];
    if (!signature) throw new Error('the receipt has no ds:Signature');
    const standalone = signature.replace('<ds:Signature ', '<ds:Signature xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" ');
    const verifier = new SignedXml({ publicCert: ap2.pem, getCertFromKeyInfo: () => null });
    verifier.loadSignature(standalone);
    expect(verifier.checkSignature(xml)).to.equal(true);
    expect(verifier.getSignedReferences()).to.have.length(2); // eb:Messaging and the SOAP Body
    const stranger = new SignedXml({ publicCert: ap1.pem, getCertFromKeyInfo: () => null });
    stranger.loadSignature(standalone);
    const byUs = (() => {
      try {
        return stranger.checkSignature(xml);
      } catch {
        return false;
      }
    })();
    expect(byUs, 'not our certificate: the receiver signed it').to.equal(false);

    // what it acknowledges: our eb:MessageId, and a SHA-256 digest of each part we signed (eb:Messaging, Body, the attachment)
    const { refTo, parts } = acknowledged(xml);
    expect(refTo).to.deep.equal([as4MessageId]);
    expect(parts).to.have.length(3);
    expect(parts.filter((p) => p.uri.startsWith('cid:'))).to.have.length(1);
    expect(parts.filter((p) => p.uri.startsWith('#'))).to.have.length(2);
    for (const part of parts) expect(Buffer.from(part.digest, 'base64')).to.have.length(32);
  };

  before(async () => {
    pki = await startTestPki();
    dns = await startFakeDns();
    ap1 = await pki.issue('ap', { cn: 'POP000001' });
    ap2 = await pki.issue('ap', { cn: 'POP000002' });
    two = await accessPoint(ap2);
    const buyer = two.demo.companies[0]!;
    const table = path.join(pki.dir, 'static-endpoints.json');
    writeFileSync(table, JSON.stringify({ [buyer.peppol_id]: { url: `${two.root}/as4`, certificate: ap2.files.cert } }));
    one = await accessPoint(ap1, table);
    seller = one.demo.companies[0]!.id;
    customer = (await one.call('POST', `/companies/${seller}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id as string;
    await one.services.validator(); // the rule sets load first: minutes on a loaded machine
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await dns?.close();
    await pki?.close();
  });

  it('a delivered invoice shows the receipt instance 2 signed: its signature verifies with instance 2\'s certificate, and it answers our message', async () => {
    const invoiceId = await newInvoice('Audit receipt');
    sentInvoiceId = invoiceId;
    expect((await one.call('POST', `/companies/${seller}/invoices/${invoiceId}/send`)).status).to.equal(202);
    const invoice = await eventually(
      async () => (await one.call('GET', `/companies/${seller}/invoices/${invoiceId}`)).body as Invoice,
      (i) => i.peppol_delivery?.status === 'sent' || i.peppol_delivery?.status === 'delivered' || ['failed', 'rejected'].includes(i.status),
      { withinMs: 120_000 },
    );
    expect(invoice.peppol_delivery, JSON.stringify(invoice.peppol_delivery)).to.deep.include({ error: null });
    const peppolMessageId = invoice.peppol_delivery!.message_id!;

    const answer = await receiptOf(invoiceId);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.match(/^application\/xml/);
    const as4MessageId = answer.headers.get('as4-message-id');
    expect(as4MessageId).to.equal(`${peppolMessageId}@POP000001`);
    expect(answer.headers.get('peppol-message-id')).to.equal(peppolMessageId);
    expect(answer.headers.get('as4-receiving-ap')).to.equal('POP000002');
    const xml = await answer.text();

    checkReceipt(xml, as4MessageId!);

    // the same receipt sits on the sent event of the invoice's history
    const history = (await one.call('GET', `/companies/${seller}/invoices/${invoiceId}/history`)).body as { events: { type: string; data: { as4?: { receipt: string; message_id: string; receiving_ap: string } } }[] };
    const sent = history.events.filter((e) => e.type === 'PeppolMessageSent');
    expect(sent).to.have.length(1);
    expect(sent[0]!.data.as4).to.deep.equal({ message_id: as4MessageId, receipt: xml, receiving_ap: 'POP000002' });
  });

  it('an invoice not sent over AS4 has no receipt: peppol_receipt_not_found with the leg\'s status; another company\'s invoice is not found', async () => {
    const draft = await newInvoice('Not sent');
    const unsent = await receiptOf(draft);
    expect(unsent.status).to.equal(404);
    expect(withoutRequestId(await unsent.json())).to.deep.equal({ detail: { error: 'peppol_receipt_not_found', message: 'the invoice has no AS4 receipt: it was not sent over AS4 (not sent yet, sandbox, or marked sent)', peppol_status: 'not_sent' } });
    expect((await one.call('POST', `/companies/${seller}/invoices/${draft}/mark-sent`, { note: 'by e-mail' })).status).to.equal(200);
    const manual = await receiptOf(draft);
    expect(manual.status).to.equal(404);
    expect(((await manual.json()) as { detail: Record<string, unknown> }).detail).to.include({ error: 'peppol_receipt_not_found', peppol_status: 'manual' });
    const elsewhere = await receiptOf(draft, one.demo.companies[1]!.id);
    expect(elsewhere.status).to.equal(404);
    expect(((await elsewhere.json()) as { detail: Record<string, unknown> }).detail).to.include({ error: 'invoice_not_found' });
  });
  it('a SAPI-SK document SENT over AS4 shows its receipt at /sapi/document/status/{id}/peppol-receipt, to the client that sent it', async () => {
    const from = one.demo.companies[0]!;
    const to = two.demo.companies[0]!;
    const asSender = { ...bearer((await requestToken(one, 0)).body.access_token as string), 'x-peppol-participant-id': from.sapi.participant_id };
    const xml = await (await fetch(`${one.api}/companies/${seller}/invoices/${sentInvoiceId}/ubl`, { headers: { 'x-api-key': one.demo.api_key } })).text();
    const accepted = await sapiFetch(one, 'POST', '/document/send', { ...sendRequest(xml, from.peppol_id, to.peppol_id, { documentId: 'ERP-RECEIPT-1' }), checksum: sha256Hex(xml) }, {
      ...asSender, 'idempotency-key': newKey(),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const id = accepted.body.providerDocumentId as string;
    const receiptAt = (headers: Record<string, string>) => fetch(`${one.root}/sapi/document/status/${id}/peppol-receipt`, { headers });
    const status = await eventually(async () => (await sapiFetch(one, 'GET', `/document/status/${id}`, undefined, asSender)).body,
      (s) => s.status === 'SENT' || s.status === 'FAILED', { withinMs: 120_000 });
    expect(status.status, JSON.stringify(status)).to.equal('SENT');
    const answer = await receiptAt(asSender);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.match(/^application\/xml/);
    expect(answer.headers.get('peppol-message-id')).to.equal(status.peppolMessageId);
    const as4MessageId = answer.headers.get('as4-message-id')!;
    expect(as4MessageId).to.equal(`${status.peppolMessageId}@POP000001`);
    checkReceipt(await answer.text(), as4MessageId);

    // another client of the same organisation does not see it
    const other = one.demo.companies[1]!;
    const asOther = { ...bearer((await requestToken(one, 1)).body.access_token as string), 'x-peppol-participant-id': other.sapi.participant_id };
    const hidden = await receiptAt(asOther);
    expect(hidden.status).to.equal(404);
    expect(((await hidden.json()) as { error: { code: string } }).error.code).to.equal('SAPI-DOC-NOT-FOUND');
  });
});
