/**
 * The AS4 codec end to end without HTTP: a UserMessage built by one Access Point is read by the
 * other, which answers with a signed receipt the first one verifies; and every refusal the issue
 * names fails without its check (signature, attachment digest, wrapping, receipt digests and
 * signer, decryption key, decompression, sender trust), while what other implementations send
 * (base64 attachment, a MIME preamble, other prefixes, issuer-serial key info) is accepted.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { As4Error, buildErrorSignal, buildReceipt, buildUserMessage, readUserMessage, verifyReceipt, type BuiltMessage, type ReadResult, type ReceivedMessage } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { encryptContent, unwrapKey } from '../../../src/modules/delivery/peppol/as4/attachment-crypto.ts';
import { readMultipart } from '../../../src/modules/delivery/peppol/as4/mime.ts';
import { assembleUserMessage } from '../../../src/modules/delivery/peppol/as4/user-message-build.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { gzipSync } from 'node:zlib';
import { issuedBy, testAp, testCa, type TestAp, type TestCa } from './test-certificates.ts';

const SBDH = `<?xml version="1.0" encoding="UTF-8"?>
<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">ľščťžýáíé</Invoice></StandardBusinessDocument>
`;

describe('AS4 codec (Peppol AS4 profile 2.0.3)', function () {
  this.timeout(60_000);
  let ca: TestCa;
  let otherCa: TestCa;
  let a: TestAp;
  let b: TestAp;
  let c: TestAp;
  let stranger: TestAp;

  before(async () => {
    ca = await testCa('Test Peppol AP CA');
    otherCa = await testCa('Some Other CA');
    a = await testAp(ca, 'PSK000001');
    b = await testAp(ca, 'PSK000002');
    c = await testAp(ca, 'PSK000003');
    stranger = await testAp(otherCa, 'PSK000009');
  });

  const input = (messageId = `${randomUUID()}@test`) => ({
    messageId,
    timestamp: new Date('2026-11-29T10:00:00Z'),
    conversationId: randomUUID(),
    processId: BILLING_PROCESS_ID,
    documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
    originalSender: '0245:2020123456',
    finalRecipient: '9950:sk2020654321',
  });

  const send = (from: TestAp, to: TestAp, options: { encryptionKeyInfo?: 'token' | 'issuer-serial' } = {}) =>
    buildUserMessage({ ...input(), sbdh: SBDH }, { signingKey: from.key, signingCert: from.cert, receiverCert: to.cert, ...options });

  const receive = (message: { contentType: string; body: Buffer }, at: TestAp = b, trustCa: TestCa = ca): Promise<ReadResult> =>
    readUserMessage(message.contentType, message.body, { ourKey: at.key, ourCert: at.cert, trustSender: issuedBy(trustCa) });

  function accepted(result: ReadResult): ReceivedMessage {
    if (!result.ok) throw new Error(`refused: ${result.error.message}`);
    return result.message;
  }

  function refused(result: ReadResult, code: string): As4Error {
    if (result.ok) throw new Error(`accepted, but ${code} was expected`);
    expect(result.error.code, result.error.message).to.equal(code);
    return result.error;
  }

  /** The message's parts, to change one and write it again (binary, or base64, with a preamble). */
  async function rewrite(
    message: BuiltMessage,
    change: { soap?: (xml: string) => string; attachment?: (body: Buffer) => Buffer; base64?: boolean; preamble?: string },
  ): Promise<{ contentType: string; body: Buffer }> {
    const parts = await readMultipart(message.contentType, message.body);
    const soap = (change.soap ?? ((x: string) => x))(parts.root.body.toString('utf8'));
    const attachment = parts.attachments[0];
    if (!attachment) throw new Error('no attachment');
    const content = (change.attachment ?? ((x: Buffer) => x))(attachment.body);
    const boundary = 'MIMEBoundary_a1b2c3';
    const encoded = change.base64 ? Buffer.from(content.toString('base64').replace(/(.{76})/g, '$1\r\n')) : content;
    const body = Buffer.concat([
      Buffer.from(`${change.preamble ?? ''}--${boundary}\r\nContent-Type: application/soap+xml; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\nContent-ID: <${parts.root.contentId}>\r\n\r\n`),
      Buffer.from(soap, 'utf8'),
      Buffer.from(`\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: ${change.base64 ? 'base64' : 'binary'}\r\nContent-ID: <${attachment.contentId}>\r\n\r\n`),
      encoded,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { contentType: `multipart/related; type="application/soap+xml"; boundary="${boundary}"; start="<${parts.root.contentId}>"`, body };
  }

  /** The content key B unwraps: what an attacker who is not B does not have (used to forge a consistent ciphertext). */
  function contentKeyFor(soap: string, at: TestAp): Buffer {
    const wrapped = /<xenc:CipherValue>([^<]+)<\/xenc:CipherValue>/.exec(soap)?.[1];
    if (!wrapped) throw new Error('no CipherValue');
    return unwrapKey(at.key, Buffer.from(wrapped, 'base64'));
  }

  describe('round trip', () => {
    it('B reads what A sends and A accepts the receipt B signs', async () => {
      const sent = send(a, b);
      expect(sent.contentType).to.match(/^multipart\/related;/);
      expect(sent.references.map((r) => r.uri)).to.have.length(3);
      const received = accepted(await receive(sent));
      expect(received.sbdh.toString('utf8')).to.equal(SBDH);
      const m = received.messaging;
      expect(m.from).to.deep.equal({ partyId: 'PSK000001', partyIdType: 'urn:fdc:peppol.eu:2017:identifiers:ap', role: 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator' });
      expect(m.to.partyId).to.equal('PSK000002');
      expect(m.agreementRef).to.equal('urn:fdc:peppol.eu:2017:agreements:tia:ap_provider');
      expect(m.service).to.deep.equal({ scheme: 'cenbii-procid-ubl', value: BILLING_PROCESS_ID });
      expect(m.action).to.equal(`busdox-docid-qns::${INVOICE_DOCUMENT_TYPE_ID}`);
      expect(m.documentTypeId).to.deep.equal({ scheme: 'busdox-docid-qns', value: INVOICE_DOCUMENT_TYPE_ID });
      expect(m.originalSender).to.deep.equal({ scheme: 'iso6523-actorid-upis', value: '0245:2020123456' });
      expect(m.finalRecipient).to.deep.equal({ scheme: 'iso6523-actorid-upis', value: '9950:sk2020654321' });
      expect(m.parts).to.deep.equal([{ href: m.parts[0]?.href, mimeType: 'application/xml', compressionType: 'application/gzip' }]);
      expect(received.senderCert.raw.equals(a.cert.raw)).to.equal(true);
      expect(received.references).to.deep.equal(sent.references);

      const receipt = buildReceipt({ messageId: `${randomUUID()}@b`, timestamp: new Date(), refToMessageId: m.messageId, references: received.references }, { signingKey: b.key, signingCert: b.cert });
      const verdict = await verifyReceipt(receipt.contentType, receipt.body, { messageId: m.messageId, references: sent.references, receiverCert: b.cert });
      expect(verdict.ok, verdict.ok ? '' : verdict.reason).to.equal(true);
      if (verdict.ok) expect(verdict.receipt).to.contain('NonRepudiationInformation');
    });

    it('keeps the caller’s eb:MessageId, the same on every retry', async () => {
      const fixed = input('retry-1@test');
      const first = accepted(await receive(buildUserMessage({ ...fixed, sbdh: SBDH }, { signingKey: a.key, signingCert: a.cert, receiverCert: b.cert })));
      const again = accepted(await receive(buildUserMessage({ ...fixed, sbdh: SBDH }, { signingKey: a.key, signingCert: a.cert, receiverCert: b.cert })));
      expect(first.messaging.messageId).to.equal('retry-1@test');
      expect(again.messaging.messageId).to.equal('retry-1@test');
    });
  });

  describe('refusals', () => {
    it('a signature value that does not verify: EBMS:0101', async () => {
      const sent = send(a, b);
      const forged = await rewrite(sent, { soap: (xml) => xml.replace(/<ds:SignatureValue>(.)/, (_, ch: string) => `<ds:SignatureValue>${ch === 'A' ? 'B' : 'A'}`) });
      refused(await receive(forged), 'EBMS:0101');
    });

    it('a signed header value changed: EBMS:0101', async () => {
      const sent = send(a, b);
      const forged = await rewrite(sent, { soap: (xml) => xml.replace('9950:sk2020654321', '9950:sk2020999999') });
      refused(await receive(forged), 'EBMS:0101');
    });

    it('an attachment changed after signing (re-encrypted consistently): EBMS:0101', async () => {
      const sent = send(a, b);
      const soap = (await readMultipart(sent.contentType, sent.body)).root.body.toString('utf8');
      const key = contentKeyFor(soap, b);
      const forged = await rewrite(sent, { attachment: () => encryptContent(key, gzipSync(Buffer.from(SBDH.replace('ľščťžýáíé', 'changed')))) });
      expect(refused(await receive(forged), 'EBMS:0101').reason).to.match(/digest of cid:/);
    });

    it('a signed eb:Messaging moved and an unsigned one in its place (wrapping): EBMS:0101', async () => {
      const sent = send(a, b);
      const forged = await rewrite(sent, {
        soap: (xml) => {
          const signed = /<eb:Messaging[\s\S]*<\/eb:Messaging>/.exec(xml)?.[0];
          if (!signed) throw new Error('no eb:Messaging');
          const unsigned = signed.replace(/wsu:Id="[^"]+"/, 'wsu:Id="forged"').replace('9950:sk2020654321', '9950:attacker');
          return xml.replace(signed, unsigned).replace('</wsse:Security>', `<wsse:Wrapper>${signed}</wsse:Wrapper></wsse:Security>`);
        },
      });
      expect(refused(await receive(forged), 'EBMS:0101').reason).to.match(/eb:Messaging/);
    });

    it('a duplicated Id (the unsigned copy carries the signed one’s Id): EBMS:0101', async () => {
      const sent = send(a, b);
      const forged = await rewrite(sent, {
        soap: (xml) => {
          const signed = /<eb:Messaging[\s\S]*<\/eb:Messaging>/.exec(xml)?.[0] as string;
          return xml.replace(signed, signed.replace('9950:sk2020654321', '9950:attacker')).replace('</wsse:Security>', `<wsse:Wrapper>${signed}</wsse:Wrapper></wsse:Security>`);
        },
      });
      refused(await receive(forged), 'EBMS:0101');
    });

    it('a sender certificate from another CA: EBMS:0101', async () => {
      refused(await receive(send(stranger, b)), 'EBMS:0101');
    });

    it('a message encrypted for another Access Point: EBMS:0102', async () => {
      refused(await receive(send(a, b), c), 'EBMS:0102');
    });

    it('a content key that does not unwrap with our key: EBMS:0102', async () => {
      const sent = send(a, b, { encryptionKeyInfo: 'issuer-serial' });
      // names B by issuer and serial, but the wrapped key is garbage
      const forged = await rewrite(sent, { soap: (xml) => xml.replace(/<xenc:CipherValue>[^<]+/, `<xenc:CipherValue>${Buffer.alloc(256, 7).toString('base64')}`) });
      refused(await receive(forged), 'EBMS:0102');
    });

    it('a signed payload that is not gzip: EBMS:0303', async () => {
      const sent = assembleUserMessage(input(), Buffer.from('this is not gzip'), { signingKey: a.key, signingCert: a.cert, receiverCert: b.cert });
      refused(await receive(sent), 'EBMS:0303');
    });

    it('not multipart, or not XML: EBMS:0004', async () => {
      refused(await readUserMessage('application/soap+xml', Buffer.from('<x/>'), { ourKey: b.key, ourCert: b.cert, trustSender: () => null }), 'EBMS:0004');
      const sent = send(a, b);
      refused(await receive(await rewrite(sent, { soap: () => '<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>' })), 'EBMS:0004');
    });

    it('the error names the message it answers, and the signal says the code', async () => {
      const sent = send(a, b);
      const error = refused(await receive(sent, c), 'EBMS:0102');
      expect(error.refToMessageId).to.match(/@test$/);
      const signal = buildErrorSignal(error, { messageId: `${randomUUID()}@c`, timestamp: new Date() });
      const verdict = await verifyReceipt(signal.contentType, signal.body, { messageId: error.refToMessageId as string, references: sent.references, receiverCert: c.cert });
      expect(verdict.ok).to.equal(false);
      if (!verdict.ok) {
        expect(verdict.reason).to.contain('EBMS:0102');
        expect(verdict.errors?.[0]?.shortDescription).to.equal('FailedDecryption');
      }
    });
  });

  describe('receipts refused', () => {
    async function receiptFor(sent: BuiltMessage, signer: TestAp, references = sent.references) {
      const received = accepted(await receive(sent));
      const receipt = buildReceipt({ messageId: `${randomUUID()}@b`, timestamp: new Date(), refToMessageId: received.messaging.messageId, references }, { signingKey: signer.key, signingCert: signer.cert });
      return { receipt, messageId: received.messaging.messageId };
    }

    it('with a digest we did not sign', async () => {
      const sent = send(a, b);
      const wrong = sent.references.map((r, i) => (i === 2 ? { ...r, digestValue: Buffer.alloc(32, 1).toString('base64') } : r));
      const { receipt, messageId } = await receiptFor(sent, b, wrong);
      const verdict = await verifyReceipt(receipt.contentType, receipt.body, { messageId, references: sent.references, receiverCert: b.cert });
      expect(verdict.ok).to.equal(false);
      if (!verdict.ok) expect(verdict.reason).to.match(/does not repeat the digest/);
    });

    it('with a reference missing', async () => {
      const sent = send(a, b);
      const { receipt, messageId } = await receiptFor(sent, b, sent.references.slice(0, 2));
      const verdict = await verifyReceipt(receipt.contentType, receipt.body, { messageId, references: sent.references, receiverCert: b.cert });
      expect(verdict.ok).to.equal(false);
    });

    it('signed by someone else than the receiver', async () => {
      const sent = send(a, b);
      const { receipt, messageId } = await receiptFor(sent, c);
      const verdict = await verifyReceipt(receipt.contentType, receipt.body, { messageId, references: sent.references, receiverCert: b.cert });
      expect(verdict.ok).to.equal(false);
      if (!verdict.ok) expect(verdict.reason).to.match(/another certificate/);
    });

    it('with its signed content changed', async () => {
      const sent = send(a, b);
      const { receipt, messageId } = await receiptFor(sent, b);
      // one more acknowledged part inside the signed eb:Messaging: the receipt's own digest breaks
      const extra = '<ebbp:MessagePartNRInformation><ebbp:MessageOrderResult/></ebbp:MessagePartNRInformation>';
      const forged = Buffer.from(receipt.body.toString('utf8').replace('</ebbp:NonRepudiationInformation>', `${extra}</ebbp:NonRepudiationInformation>`));
      const verdict = await verifyReceipt(receipt.contentType, forged, { messageId, references: sent.references, receiverCert: b.cert });
      expect(verdict.ok).to.equal(false);
      if (!verdict.ok) expect(verdict.reason).to.match(/EBMS:0101/);
    });

    it('answering another message', async () => {
      const sent = send(a, b);
      const { receipt } = await receiptFor(sent, b);
      const verdict = await verifyReceipt(receipt.contentType, receipt.body, { messageId: 'another@test', references: sent.references, receiverCert: b.cert });
      expect(verdict.ok).to.equal(false);
    });
  });

  describe('what other implementations send', () => {
    it('the attachment as base64', async () => {
      const sent = send(a, b);
      expect(accepted(await receive(await rewrite(sent, { base64: true }))).sbdh.toString('utf8')).to.equal(SBDH);
    });

    it('a MIME preamble and another boundary', async () => {
      const sent = send(a, b);
      expect(accepted(await receive(await rewrite(sent, { preamble: 'This is a multi-part message in MIME format.\r\n\r\n' }))).sbdh.toString('utf8')).to.equal(SBDH);
    });

    it('other namespace prefixes (phase4 writes S12:) and an unprefixed Id', async () => {
      const spell = (xml: string) =>
        xml
          .replace(/(<\/?)eb:/g, '$1ns2:')
          .replace(/xmlns:eb=/g, 'xmlns:ns2=')
          .replace(/(<\/?)env:/g, '$1S12:')
          .replace(/xmlns:env=/g, 'xmlns:S12=')
          .replace(/ env:mustUnderstand=/g, ' S12:mustUnderstand=')
          .replace(/(<\/?)ds:/g, '$1sig:')
          .replace(/xmlns:ds=/g, 'xmlns:sig=')
          .replace(/(<S12:Body) wsu:Id=/, '$1 Id=');
      const sent = assembleUserMessage(input(), gzipSync(SBDH), { signingKey: a.key, signingCert: a.cert, receiverCert: b.cert }, spell);
      const soap = (await readMultipart(sent.contentType, sent.body)).root.body.toString('utf8');
      expect(soap).to.contain('<ns2:Messaging').and.contain('<sig:Signature').and.contain('<S12:Body Id=').and.not.contain('<eb:');
      expect(accepted(await receive(sent)).sbdh.toString('utf8')).to.equal(SBDH);
    });

    it('the encryption certificate given by issuer and serial number', async () => {
      const sent = send(a, b, { encryptionKeyInfo: 'issuer-serial' });
      const soap = (await readMultipart(sent.contentType, sent.body)).root.body.toString('utf8');
      expect(soap).to.contain('X509IssuerSerial');
      expect(accepted(await receive(sent)).sbdh.toString('utf8')).to.equal(SBDH);
      refused(await receive(sent, c), 'EBMS:0102');
    });
  });
});
