/**
 * What the Peppol AS4 profile fixes about the parties and the message id, as phase4 reads it:
 * both eb:PartyIds are typed `urn:fdc:peppol.eu:2017:identifiers:ap` (another type or none is
 * refused with EBMS:0004, after the signature is checked), and every eb:MessageId we write is an
 * RFC 2822 msg-id (ebMS 3.0 core 5.2.2.1), whatever our certificate's CN looks like.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { isEbmsMessageId, readUserMessage, type ReadResult } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { assembleUserMessage } from '../../../src/modules/delivery/peppol/as4/user-message-build.ts';
import { as4MessageIdOf } from '../../../src/modules/delivery/peppol/as4-network.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';
import { issuedBy, testAp, testCa, type TestAp, type TestCa } from './test-certificates.ts';

const SBDH = '<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/></StandardBusinessDocument>';
const AP_TYPE = 'urn:fdc:peppol.eu:2017:identifiers:ap';

describeDatabaseFree('AS4 parties and message ids (Peppol AS4 profile 2.0.3, 4.5; ebMS 3.0 5.2.2.1)', function () {
  this.timeout(60_000);
  let ca: TestCa;
  let a: TestAp;
  let b: TestAp;

  before(async () => {
    ca = await testCa('Test Peppol AP CA');
    a = await testAp(ca, 'PSK000001');
    b = await testAp(ca, 'PSK000002');
  });

  /** A message from a to b, its eb:Messaging changed by `spell` before it is signed. */
  const sent = (spell: (xml: string) => string) => assembleUserMessage({
    messageId: as4MessageIdOf(randomUUID(), a.cn), timestamp: new Date(), conversationId: randomUUID(),
    processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, originalSender: '0245:2020123456', finalRecipient: '9950:sk2020654321',
  }, gzipSync(SBDH), { signingKey: a.key, signingCert: a.cert, receiverCert: b.cert }, spell);
  const receive = (message: { contentType: string; body: Buffer }): Promise<ReadResult> =>
    readUserMessage(message.contentType, message.body, { ourKey: b.key, ourCert: b.cert, trustSender: issuedBy(ca) });

  describe('eb:PartyId types', () => {
    it('the Access Point type on both sides is read', async () => {
      const read = await receive(sent((xml) => xml));
      expect(read.ok, read.ok ? '' : read.error.message).to.equal(true);
    });

    for (const [side, change] of [
      ['From', (xml: string) => xml.replace(`type="${AP_TYPE}">${'PSK000001'}`, 'type="urn:oasis:names:tc:ebcore:partyid-type:unregistered">PSK000001')],
      ['To', (xml: string) => xml.replace(`type="${AP_TYPE}">${'PSK000002'}`, 'type="urn:oasis:names:tc:ebcore:partyid-type:unregistered">PSK000002')],
      ['From (untyped)', (xml: string) => xml.replace(` type="${AP_TYPE}">PSK000001`, '>PSK000001')],
    ] as const) {
      it(`another type on ${side}, signed as sent: EBMS:0004`, async () => {
        let changed = false;
        const read = await receive(sent((xml) => {
          const out = change(xml);
          changed = out !== xml;
          return out;
        }));
        expect(changed, 'the test changed nothing').to.equal(true);
        expect(read.ok).to.equal(false);
        if (!read.ok) {
          expect(read.error.code).to.equal('EBMS:0004');
          expect(read.error.reason).to.include(`eb:${side.split(' ')[0]}/PartyId`);
        }
      });
    }
  });

  describe('eb:MessageId', () => {
    it('ours is the SBDH instance id at our CN, an RFC 2822 msg-id', () => {
      const id = '0c8a3f8e-2a0e-4f43-9d0b-6a1f3c1d2e11';
      expect(as4MessageIdOf(id, 'POP000123')).to.equal(`${id}@POP000123`);
      expect(isEbmsMessageId(as4MessageIdOf(id, 'POP000123'))).to.equal(true);
    });

    it('an unusual CN still gives a valid msg-id, the same every time', () => {
      for (const cn of ['Test AP (Bratislava)', '.leading..dots.', 'ščť', '', 'a@b']) {
        const id = as4MessageIdOf('0c8a3f8e-2a0e-4f43-9d0b-6a1f3c1d2e11', cn);
        expect(isEbmsMessageId(id), `${cn} → ${id}`).to.equal(true);
        expect(as4MessageIdOf('0c8a3f8e-2a0e-4f43-9d0b-6a1f3c1d2e11', cn)).to.equal(id);
      }
    });

    it('the check itself refuses what RFC 2822 refuses', () => {
      for (const bad of ['no-at-sign', 'two@at@signs', 'a..b@host', '.a@host', 'a@host.', 'spa ce@host', '<a@host>']) {
        expect(isEbmsMessageId(bad), bad).to.equal(false);
      }
    });
  });
});
