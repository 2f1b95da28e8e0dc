/**
 * A repeated eb:MessageId gets the receipt it got the first time only from the Access Point that
 * sent it first: the sender is the verified signing certificate's CN, not the PartyId a message
 * claims. Another Access Point reusing the id (by mistake, or to make someone's message count as
 * a repeat and be dropped) is refused with EBMS:0004. The kept receipt is the message's
 * As4MessageReceived event. On both databases.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import { as4InboundDecider, as4InboundStream } from '../../../commands/delivery/as4-inbound.ts';
import { as4Receiver, type As4Receiver } from '../../../src/modules/delivery/peppol/as4-receive.ts';
import { buildUserMessage } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { assembleUserMessage } from '../../../src/modules/delivery/peppol/as4/user-message-build.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { handleCommand } from '../../../src/platform/handling/command-handler.ts';
import { systemClock } from '../../../src/platform/ports/clock.ts';
import { randomIds } from '../../../src/platform/ports/ids.ts';
import { freshEventStore } from '../../support/database.ts';
import { issuedBy, testAp, testCa, type TestAp } from './test-certificates.ts';

const NOT_AN_SBDH = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>';

describe('AS4 receiving: a repeated eb:MessageId belongs to its first sender', function () {
  this.timeout(120_000);
  let events: Awaited<ReturnType<typeof freshEventStore>>;
  let receiver: As4Receiver;
  let first: TestAp;
  let second: TestAp;
  let us: TestAp;

  before(async () => {
    const ca = await testCa('Test AP CA');
    first = await testAp(ca, 'PSK000001');
    second = await testAp(ca, 'PSK000002');
    us = await testAp(ca, 'PSK000009');
    events = await freshEventStore();
    // a repeat, or an id another Access Point took, is answered before the read models are asked
    const readModels = { query: () => Promise.reject(new Error('no read model is asked in this test')) } as unknown as DataSource;
    receiver = as4Receiver({
      store: events.store, ids: randomIds,
      identity: { certificate: us.cert, privateKey: us.key, commonName: us.cn },
      trustSender: async (cert) => issuedBy(ca)(cert),
      readModels,
      receive: () => Promise.reject(new Error('nothing reaches the inbound path in this test')), ourSpis: '0242:000001',
      clock: systemClock,
      log: { info: () => undefined, warn: () => undefined },
    });
  });
  after(async () => events?.close());

  const input = (messageId: string) => ({
    messageId, timestamp: new Date(), conversationId: randomUUID(), processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
    originalSender: '0245:2020123456', finalRecipient: '9950:sk2020654321',
  });
  const from = (sender: TestAp, messageId: string) =>
    buildUserMessage({ ...input(messageId), sbdh: NOT_AN_SBDH }, { signingKey: sender.key, signingCert: sender.cert, receiverCert: us.cert });

  it('the first sender gets its kept receipt; another Access Point with the same id, even claiming the first one\'s PartyId, is refused', async () => {
    const messageId = `${randomUUID()}@PSK000001`;
    await handleCommand({ store: events.store, ids: randomIds }, as4InboundStream(messageId), as4InboundDecider, {
      type: 'RecordAs4MessageReceived', message_id: messageId, sender_ap: 'PSK000001', original_sender: '0245:2020123456', final_recipient: '9950:sk2020654321',
      document_type_id: INVOICE_DOCUMENT_TYPE_ID, process_id: BILLING_PROCESS_ID, receipt_message_id: `${randomUUID()}@PSK000009`,
      receipt_content_type: 'application/soap+xml', receipt: '<kept-receipt/>', at: new Date().toISOString(),
    }, { metadata: {}, expected: { newStream: true } });

    const again = await receiver.receive(...args(from(first, messageId)));
    expect(again.outcome).to.equal('repeat');
    expect(again.body.toString('utf8')).to.equal('<kept-receipt/>');

    const reused = await receiver.receive(...args(from(second, messageId)));
    expect(reused.outcome).to.equal('EBMS:0004');
    expect(reused.body.toString('utf8')).to.include('already used by another Access Point').and.not.include('kept-receipt');

    const impersonating = assembleUserMessage(input(messageId), gzipSync(NOT_AN_SBDH), { signingKey: second.key, signingCert: second.cert, receiverCert: us.cert },
      (xml) => xml.replace('>PSK000002<', '>PSK000001<'));
    const claimed = await receiver.receive(...args(impersonating));
    expect(claimed.outcome).to.equal('EBMS:0004');
    expect(claimed.body.toString('utf8')).to.not.include('kept-receipt');
  });
});

function args(message: { contentType: string; body: Buffer }): [string, Buffer] {
  return [message.contentType, message.body];
}
