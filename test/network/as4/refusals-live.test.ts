/**
 * Every refusal of issue 38 item 6 through a running service (PEPPOL_NETWORK=as4), on both
 * databases. Receiving: a UserMessage with a bad signature value, an attachment changed after
 * signing, a signed eb:Messaging moved aside (wrapping), an expired or revoked sender certificate,
 * an unreachable revocation responder (hard refuses, soft lets through) is POSTed to /as4; each
 * answer is an ebMS error signal with its code, and nothing is created: no inbound invoice, no
 * SAPI-SK inbox copy (their streams stay empty: the inbound path appends before the answer), no
 * webhook. Sending: instance `one` sends a real invoice to a receiving Access Point on loopback
 * that answers a receipt with wrong digests, one signed by another certificate, an ebMS error or
 * HTTP 500; the invoice's delivery shows why, and every attempt carries the same eb:MessageId.
 *
 * `one` runs PEPPOL_REVOCATION=soft (the default) and sends; `two` runs `hard`.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { stableUuid } from '../../../commands/shared/stable-id.ts';
import { inboxHandle } from '../../../commands/sapi/inbox.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { sapiInboxStream } from '../../../events/sapi-inbox.ts';
import { randomSandboxIdentity } from '../../../src/demo/identifiers.ts';
import { boundedFetch } from '../../../src/modules/delivery/index.ts';
import { As4Error, buildErrorSignal, buildReceipt, buildUserMessage, readUserMessage, type BuiltMessage, type SoapResponse } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { encryptContent, unwrapKey } from '../../../src/modules/delivery/peppol/as4/attachment-crypto.ts';
import { readMultipart } from '../../../src/modules/delivery/peppol/as4/mime.ts';
import { as4MessageIdOf } from '../../../src/modules/delivery/peppol/as4-network.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { eventually } from '../../support/poll.ts';
import { startTestPki, type TestCertificate, type TestPki } from '../../support/peppol-pki.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';

const DAY = 86_400_000;
const MAX_ATTEMPTS = 3;

type Delivery = { status: string; message_id: string | null; attempts: number; error: string | null; findings: { rule: string; message: string }[] };
type Invoice = { id: string; status: string; peppol_delivery: Delivery | null };
/** how the fake receiving Access Point answers a message for one participant */
type Mode = 'wrong-digests' | 'other-signer' | 'ebms-error' | 'http-500';

describe('AS4 refusals through live HTTP (issue 38, item 6)', function () {
  this.timeout(300_000);
  let pki: TestPki;
  let ap1: TestCertificate;
  let ap2: TestCertificate;
  let fakeAp: TestCertificate;
  let impostor: TestCertificate;
  let one: TestService;
  let two: TestService;
  let hooks: WebhookReceiver;
  let fake: http.Server;
  const modes = new Map<string, Mode>();
  /** the fake Access Point's participants, one per mode (a sandbox identity: its peppol_id follows its IČ DPH) */
  const fakeParticipants = new Map<Mode, ReturnType<typeof randomSandboxIdentity>>();
  /** the eb:MessageIds the fake receiver saw, by final recipient */
  const seen = new Map<string, string[]>();
  /** the invoice ids a refused message would have made: no webhook may name one */
  const refusedInvoices: string[] = [];
  const ubl = new Map<'one' | 'two', string>();

  const accessPoint = async (certificate: TestCertificate, revocation: 'soft' | 'hard', staticEndpoints?: string) => {
    const defaults = loadConfig({});
    return startTestService({
      peppol: loadConfig({ ...pki.env(certificate), PEPPOL_REVOCATION: revocation }).peppol,
      peppolRevocationFetch: boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: true }),
      delivery: { maxAttempts: MAX_ATTEMPTS, discovery: { ...defaults.delivery.discovery, staticEndpointsFile: staticEndpoints, timeoutMs: 2_000, smpCacheMs: 0, allowLoopback: true } },
    });
  };

  /** The fake receiving Access Point: reads what `one` sends with fakeAp's key, answers by the recipient's mode. */
  const fakeAnswer = async (contentType: string, body: Buffer): Promise<{ status: number; reply: SoapResponse }> => {
    const read = await readUserMessage(contentType, body, { ourKey: createPrivateKey(fakeAp.keyPem), ourCert: fakeAp.node, trustSender: () => null });
    if (!read.ok) return { status: 400, reply: buildErrorSignal(read.error, { messageId: `${randomUUID()}@fake`, timestamp: new Date() }) };
    const { messaging, references } = read.message;
    const recipient = messaging.finalRecipient.value.toLowerCase();
    seen.set(recipient, [...(seen.get(recipient) ?? []), messaging.messageId]);
    const receipt = (signer: TestCertificate, refs = references) =>
      buildReceipt({ messageId: `${randomUUID()}@fake`, timestamp: new Date(), refToMessageId: messaging.messageId, references: refs }, { signingKey: createPrivateKey(signer.keyPem), signingCert: signer.node });
    switch (modes.get(recipient)) {
      case 'wrong-digests':
        return { status: 200, reply: receipt(fakeAp, references.map((r) => ({ ...r, digestValue: Buffer.alloc(32, 1).toString('base64') }))) };
      case 'other-signer':
        return { status: 200, reply: receipt(impostor) };
      case 'ebms-error':
        return { status: 400, reply: buildErrorSignal(new As4Error('EBMS:0004', 'unknown recipient', messaging.messageId), { messageId: `${randomUUID()}@fake`, timestamp: new Date() }) };
      case 'http-500':
      default:
        return { status: 500, reply: { contentType: 'text/plain', body: Buffer.from('oops') } };
    }
  };

  before(async () => {
    pki = await startTestPki();
    ap1 = await pki.issue('ap', { cn: 'POP000001' });
    ap2 = await pki.issue('ap', { cn: 'POP000002' });
    fakeAp = await pki.issue('ap', { cn: 'POP000003' });
    impostor = await pki.issue('ap', { cn: 'POP000004' });
    fake = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fakeAnswer(req.headers['content-type'] ?? '', Buffer.concat(chunks)).then(
          ({ status, reply }) => res.writeHead(status, { 'content-type': reply.contentType }).end(reply.body),
          (error: unknown) => res.writeHead(500).end(String(error)),
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/as4`;
    const table: Record<string, { url: string; certificate: string }> = {};
    for (const mode of ['wrong-digests', 'other-signer', 'ebms-error', 'http-500'] as const) {
      const identity = randomSandboxIdentity();
      const participant = identity.peppol_id.toLowerCase();
      modes.set(participant, mode);
      fakeParticipants.set(mode, identity);
      table[participant] = { url: fakeUrl, certificate: fakeAp.files.cert };
    }
    const tableFile = path.join(pki.dir, 'static-endpoints.json');
    writeFileSync(tableFile, JSON.stringify(table));
    one = await accessPoint(ap1, 'soft', tableFile);
    two = await accessPoint(ap2, 'hard');
    hooks = await WebhookReceiver.start();
    for (const service of [one, two]) expect((await service.call('POST', '/connect/webhooks', { url: hooks.url(), description: 'refusals' })).status).to.equal(201);
    await one.services.validator(); // the rule sets load first: minutes on a loaded machine
    // a UBL to each instance's first company, issued by the other instance's (never sent)
    for (const [from, to, name] of [[one, two, 'two'], [two, one, 'one']] as const) {
      const seller = from.demo.companies[0]!.id;
      const buyer = to.demo.companies[0]!;
      const customer = (await from.call('POST', `/companies/${seller}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id as string;
      const created = await from.call('POST', `/companies/${seller}/invoices`, {
        issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer,
        lines: [{ item_name: 'Servis cez AS4', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const answer = await fetch(`${from.api}/companies/${seller}/invoices/${created.body.id}/ubl`, { headers: { 'x-api-key': from.demo.api_key } });
      expect(answer.status).to.equal(200);
      ubl.set(name, await answer.text());
    }
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await hooks?.close();
    if (fake) await new Promise<void>((resolve) => fake.close(() => resolve()));
    await pki?.close();
  });

  const instances = () => ({ one: { service: one, ap: ap1, from: two }, two: { service: two, ap: ap2, from: one } });

  /** A UserMessage as another Access Point sends it to `to`'s first company, signed by `signer`. */
  const messageTo = (to: 'one' | 'two', signer: TestCertificate) => {
    const { service, ap, from } = instances()[to];
    const instanceId = randomUUID();
    const sender = from.demo.companies[0]!.peppol_id;
    const receiver = service.demo.companies[0]!.peppol_id;
    const sbdh = wrapInSbdh({ sender, receiver, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID, instanceId, createdAt: new Date(), countryC1: 'SK', document: ubl.get(to)! });
    const built = buildUserMessage({
      messageId: `${instanceId}@${signer.certificate.subjectName.getField('CN')[0]}`, timestamp: new Date(), conversationId: randomUUID(),
      processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, originalSender: sender, finalRecipient: receiver, sbdh,
    }, { signingKey: createPrivateKey(signer.keyPem), signingCert: signer.node, receiverCert: ap.node });
    const companyId = service.demo.companies[0]!.id;
    return { built, to, instanceId, companyId, invoiceId: stableUuid('peppol-inbound', companyId, instanceId), handle: inboxHandle(companyId, instanceId) };
  };
  type Sent = ReturnType<typeof messageTo>;

  const post = async (message: Sent, built: { contentType: string; body: Buffer } = message.built) => {
    const answer = await fetch(`${instances()[message.to].service.root}/as4`, { method: 'POST', headers: { 'content-type': built.contentType }, body: new Uint8Array(built.body) });
    return { status: answer.status, body: await answer.text() };
  };

  /** The inbound path appends the invoice (and its inbox copy) before /as4 answers: after a refusal, neither stream exists. */
  const expectNothingCreated = async (message: Sent) => {
    const { service } = instances()[message.to];
    expect(await service.services.store.streamHead(invoiceStream(message.invoiceId)), 'an inbound invoice').to.equal(null);
    expect(await service.services.store.streamHead(sapiInboxStream(message.handle)), 'a SAPI-SK inbox copy').to.equal(null);
    expect((await service.call('GET', `/companies/${message.companyId}/invoices/${message.invoiceId}`)).status).to.equal(404);
  };

  /** Refused with `code`, and (checked first: a refusal after a write would be worse than none) nothing created. */
  const expectRefused = async (message: Sent, built: { contentType: string; body: Buffer } | undefined, code: string, reason: RegExp) => {
    refusedInvoices.push(message.invoiceId);
    const answer = await post(message, built);
    await expectNothingCreated(message);
    expect(answer.status, 'the HTTP status: an error signal is a SOAP message (200), as phase4 answers').to.equal(200);
    expect(answer.body).to.include('SignalMessage').and.include(`errorCode="${code}"`).and.match(reason);
  };

  /** The message's parts, one changed, written again as one multipart body. */
  async function rewrite(message: BuiltMessage, change: { soap?: (xml: string) => string; attachment?: (body: Buffer) => Buffer }) {
    const parts = await readMultipart(message.contentType, message.body);
    const attachment = parts.attachments[0];
    if (!attachment) throw new Error('no attachment');
    const soap = (change.soap ?? ((x: string) => x))(parts.root.body.toString('utf8'));
    const content = (change.attachment ?? ((x: Buffer) => x))(attachment.body);
    const boundary = 'MIMEBoundary_refusals';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Type: application/soap+xml; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\nContent-ID: <${parts.root.contentId}>\r\n\r\n${soap}`),
      Buffer.from(`\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <${attachment.contentId}>\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { contentType: `multipart/related; type="application/soap+xml"; boundary="${boundary}"; start="<${parts.root.contentId}>"`, body };
  }

  describe('receiving: POST /as4 answers an ebMS error and creates nothing', () => {
    it('a message as it was signed is taken (the control: what the refusals below change is all that is wrong)', async () => {
      const message = messageTo('two', ap1);
      const answer = await post(message);
      expect(answer.status, answer.body).to.equal(200);
      expect(answer.body).to.include('Receipt');
      expect(await two.services.store.streamHead(invoiceStream(message.invoiceId))).to.not.equal(null);
      expect(await two.services.store.streamHead(sapiInboxStream(message.handle))).to.not.equal(null);
    });

    it('a signature value that does not verify: EBMS:0101', async () => {
      const message = messageTo('two', ap1);
      const forged = await rewrite(message.built, { soap: (xml) => xml.replace(/<ds:SignatureValue>(.)/, (_, ch: string) => `<ds:SignatureValue>${ch === 'A' ? 'B' : 'A'}`) });
      await expectRefused(message, forged, 'EBMS:0101', /signature/i);
    });

    it('an attachment changed after signing (re-encrypted with the same content key): EBMS:0101', async () => {
      const message = messageTo('two', ap1);
      const soap = (await readMultipart(message.built.contentType, message.built.body)).root.body.toString('utf8');
      const wrapped = /<xenc:CipherValue>([^<]+)<\/xenc:CipherValue>/.exec(soap)?.[1];
      if (!wrapped) throw new Error('no CipherValue');
      const key = unwrapKey(createPrivateKey(ap2.keyPem), Buffer.from(wrapped, 'base64'));
      const changed = ubl.get('two')!.replace('Servis cez AS4', 'Servis zmenený');
      const sbdh = wrapInSbdh({
        sender: one.demo.companies[0]!.peppol_id, receiver: two.demo.companies[0]!.peppol_id, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID,
        // the same instance id: were the change let through, it would land where expectNothingCreated looks
        instanceId: message.instanceId, createdAt: new Date(), countryC1: 'SK', document: changed,
      });
      const forged = await rewrite(message.built, { attachment: () => encryptContent(key, gzipSync(Buffer.from(sbdh))) });
      await expectRefused(message, forged, 'EBMS:0101', /digest of cid:/);
    });

    it('a signed eb:Messaging moved and an unsigned one in its place (wrapping): EBMS:0101', async () => {
      const message = messageTo('two', ap1);
      const forged = await rewrite(message.built, {
        soap: (xml) => {
          const signed = /<eb:Messaging[\s\S]*<\/eb:Messaging>/.exec(xml)?.[0];
          if (!signed) throw new Error('no eb:Messaging');
          const unsigned = signed.replace(/wsu:Id="[^"]+"/, 'wsu:Id="forged"');
          return xml.replace(signed, unsigned).replace('</wsse:Security>', `<wsse:Wrapper>${signed}</wsse:Wrapper></wsse:Security>`);
        },
      });
      await expectRefused(message, forged, 'EBMS:0101', /eb:Messaging/);
    });

    it('a sender certificate that has expired: EBMS:0101', async () => {
      const expired = await pki.issue('ap', { cn: 'POP000010', notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() - DAY) });
      await expectRefused(messageTo('two', expired), undefined, 'EBMS:0101', /expired: /);
    });

    it('a sender certificate its CA revoked (OCSP says so): EBMS:0101, under hard and under soft', async () => {
      const revoked = await pki.issue('ap', { cn: 'POP000011' });
      pki.revoke(revoked);
      await expectRefused(messageTo('two', revoked), undefined, 'EBMS:0101', /is revoked \(OCSP\)/);
      await expectRefused(messageTo('one', revoked), undefined, 'EBMS:0101', /is revoked \(OCSP\)/);
    });

    it('a sender certificate whose responders cannot be reached: EBMS:0101 under hard; taken under soft', async () => {
      const unknown = await pki.issue('ap', { cn: 'POP000012', ocsp: `${pki.deadUrl}/ocsp`, crl: `${pki.deadUrl}/crl.crl` });
      await expectRefused(messageTo('two', unknown), undefined, 'EBMS:0101', /revocation_unknown: /);
      const message = messageTo('one', unknown);
      const answer = await post(message);
      expect(answer.status, answer.body).to.equal(200);
      expect(answer.body).to.include('Receipt');
      expect(await one.services.store.streamHead(invoiceStream(message.invoiceId))).to.not.equal(null);
      // the webhook of an inbound copy comes: so its absence for the refused ones below means something
      await eventually(async () => hooks.arrivals.filter((a) => a.rawBody.toString('utf8').includes(message.invoiceId)).length, (n) => n > 0, { withinMs: 60_000 });
    });

    it('no webhook names an invoice a refused message would have made', () => {
      expect(refusedInvoices).to.have.length.above(0);
      const named = hooks.arrivals.filter((a) => refusedInvoices.some((id) => a.rawBody.toString('utf8').includes(id)));
      expect(named.map((a) => a.headers['x-webhook-event'])).to.deep.equal([]);
    });
  });

  describe('sending: an answer that is no valid receipt is no delivery', () => {
    const customers = new Map<string, string>();
    /** A real invoice from `one`'s native door to the fake Access Point's participant of `mode`, until its delivery settles. */
    const sendTo = async (mode: Mode): Promise<{ invoice: Invoice; participant: string }> => {
      const seller = one.demo.companies[0]!.id;
      const identity = fakeParticipants.get(mode)!;
      const participant = identity.peppol_id.toLowerCase();
      let customer = customers.get(participant);
      if (!customer) {
        const made = await one.call('POST', `/companies/${seller}/customers`, { name: `Príjemca ${mode}`, vat_id: identity.vat_id, ico: identity.ico, dic: identity.dic, peppol_id: identity.peppol_id });
        expect(made.status, JSON.stringify(made.body)).to.equal(201);
        customer = made.body.id as string;
        customers.set(participant, customer);
      }
      const created = await one.call('POST', `/companies/${seller}/invoices`, {
        issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer,
        lines: [{ item_name: `Služba (${mode})`, quantity: '1', unit_price: '10.00', vat_rate: '23' }],
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect((await one.call('POST', `/companies/${seller}/invoices/${created.body.id}/send`)).status).to.equal(202);
      const invoice = await eventually(
        async () => (await one.call('GET', `/companies/${seller}/invoices/${created.body.id}`)).body as Invoice,
        (i) => ['failed', 'rejected'].includes(i.status) || ['sent', 'delivered', 'failed'].includes(i.peppol_delivery?.status ?? ''),
        { withinMs: 120_000 },
      );
      return { invoice, participant };
    };

    /** Every attempt the fake saw for `participant` carried the invoice's one eb:MessageId. */
    const expectOneMessageId = (invoice: Invoice, participant: string, attempts: number) => {
      const ids = seen.get(participant) ?? [];
      expect(ids).to.have.length(attempts);
      expect(new Set(ids)).to.deep.equal(new Set([as4MessageIdOf(invoice.peppol_delivery!.message_id!, 'POP000001')]));
    };

    const expectFailedAttempts = (invoice: Invoice, participant: string, reason: RegExp) => {
      const delivery = invoice.peppol_delivery!;
      expect(delivery.status, JSON.stringify(delivery)).to.equal('failed');
      expect(invoice.status).to.not.be.oneOf(['sent', 'delivered']);
      expect(delivery.attempts).to.equal(MAX_ATTEMPTS);
      expect(delivery.error).to.include('gave no valid receipt').and.match(reason);
      expectOneMessageId(invoice, participant, MAX_ATTEMPTS);
    };

    it('a receipt with digests we did not sign: failed attempts, retried with the same eb:MessageId', async () => {
      const { invoice, participant } = await sendTo('wrong-digests');
      expectFailedAttempts(invoice, participant, /does not repeat the digest/);
    });

    it('a receipt signed by another Access Point certificate: failed attempts, retried with the same eb:MessageId', async () => {
      const { invoice, participant } = await sendTo('other-signer');
      expectFailedAttempts(invoice, participant, /another certificate/);
    });

    it('HTTP 500 without an ebMS answer: failed attempts, retried with the same eb:MessageId', async () => {
      const { invoice, participant } = await sendTo('http-500');
      expectFailedAttempts(invoice, participant, /HTTP 500/);
    });

    it('an ebMS error signal: refused by the receiving Access Point (invoice.rejected), its code as a finding, not retried', async () => {
      const { invoice, participant } = await sendTo('ebms-error');
      const delivery = invoice.peppol_delivery!;
      expect(delivery.status, JSON.stringify(delivery)).to.equal('failed');
      expect(invoice.status).to.equal('failed');
      expect(delivery.attempts, 'no transport attempt failed').to.equal(0);
      expect(delivery.error).to.match(/refused the message: .*EBMS:0004/);
      expect(delivery.findings).to.deep.equal([{ rule: 'EBMS:0004', message: 'unknown recipient' }]);
      expectOneMessageId(invoice, participant, 1);
      // the receiver's refusal, not ours: the consumer hears invoice.rejected
      await eventually(async () => hooks.arrivals.map((a) => a.rawBody.toString('utf8')).filter((b) => b.includes(invoice.id) && b.includes('invoice.rejected')).length, (n) => n > 0, { withinMs: 60_000 });
    });
  });
});
