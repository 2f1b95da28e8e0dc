/**
 * Our Access Point as corner 3 (issue 38, item 2): what `POST /as4` does with a request body.
 * The codec reads and checks the UserMessage (sender's certificate, signature with the attachment,
 * decryption, decompression); then the final recipient must be a company of this service; then the
 * SBDH takes today's inbound path unchanged (src/modules/delivery/inbound.ts), and the answer is a
 * signed Receipt. Any refusal is an ebMS Error signal and creates nothing.
 *
 * A repeated eb:MessageId (a sender retrying after a lost receipt) gets the receipt it got the
 * first time, which is kept per message id in `as4_received_messages` with the sending Access
 * Point (its certificate's CN): the same id from another Access Point is refused; the inbound path itself
 * is idempotent by the SBDH instance id, so a crash between the two cannot make a second copy.
 */
import { randomUUID, type KeyObject, type X509Certificate } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { findCompanyByParticipant } from '../../../../projections/tenancy/queries.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { As4Error, buildErrorSignal, buildReceipt, ebmsMessageId, readUserMessage, type SoapResponse } from './as4/index.ts';
import { PeppolRejectedError, type OutboundPeppolMessage } from './peppol-network.ts';
import { commonNameOf, subjectOf } from './pki/names.ts';
import { readSbdh } from './sbdh.ts';

export interface As4ReceiverDeps {
  identity: { certificate: X509Certificate; privateKey: KeyObject; commonName: string | undefined };
  /** the PKI's verdict on a sender's certificate: null when trusted, else why not (pki/distrust.ts) */
  trustSender: (certificate: X509Certificate) => Promise<string | null>;
  readModels: DataSource;
  /** today's inbound path (inbound.ts): idempotent by the SBDH instance id */
  receive: (message: OutboundPeppolMessage) => Promise<unknown>;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
}

export interface As4Answer extends SoapResponse {
  /** the ebMS outcome, for logs and tests: a receipt, or the error code */
  outcome: 'receipt' | 'repeat' | As4Error['code'];
}

export interface As4Receiver {
  receive(contentType: string, body: Buffer): Promise<As4Answer>;
  /** an ebMS Error signal for a request the door refused before reading it (too large, too slow) */
  refuse(reason: string): As4Answer;
}

export function as4Receiver(deps: As4ReceiverDeps): As4Receiver {
  const newMessageId = () => ebmsMessageId(randomUUID(), deps.identity.commonName);
  const signal = (error: As4Error): As4Answer => ({ ...buildErrorSignal(error, { messageId: newMessageId(), timestamp: deps.clock.now() }), outcome: error.code });

  // made on first use, so the receiver can be built before the read models are open
  let table: Promise<unknown> | undefined;
  const ready = () => (table ??= deps.readModels.query(`CREATE TABLE IF NOT EXISTS as4_received_messages (
    message_id varchar(500) PRIMARY KEY, sender_ap varchar(500) NOT NULL, final_recipient varchar(200) NOT NULL,
    receipt_content_type varchar(200) NOT NULL, receipt text NOT NULL, received_at timestamptz NOT NULL)`).catch((error: unknown) => {
    table = undefined;
    throw error;
  }));
  const storedReceipt = async (messageId: string): Promise<(SoapResponse & { senderAp: string }) | null> => {
    const rows: { sender_ap: string; receipt_content_type: string; receipt: string }[] = await deps.readModels.query(
      'SELECT sender_ap, receipt_content_type, receipt FROM as4_received_messages WHERE message_id = $1', [messageId]);
    const row = rows[0];
    return row ? { senderAp: row.sender_ap, contentType: row.receipt_content_type, body: Buffer.from(row.receipt, 'utf8') } : null;
  };
  // an eb:MessageId is the sender's: another Access Point reusing it gets no receipt (the first
  // sender's digests) and cannot make the first sender's message count as a repeat
  const otherSender = (messageId: string) => signal(new As4Error('EBMS:0004', `eb:MessageId ${messageId} was already received from another Access Point`, messageId));

  return {
    refuse: (reason) => signal(new As4Error('EBMS:0004', reason)),
    async receive(contentType, body) {
      const read = await readUserMessage(contentType, body, { ourKey: deps.identity.privateKey, ourCert: deps.identity.certificate, trustSender: deps.trustSender });
      if (!read.ok) {
        deps.log.warn({ code: read.error.code, reason: read.error.reason, message_id: read.error.refToMessageId }, 'AS4 message refused');
        return signal(read.error);
      }
      const { messaging, sbdh, references, senderCert } = read.message;
      // who sent it is the verified signing certificate's CN, not the PartyId the message claims
      const senderAp = commonNameOf(senderCert) ?? subjectOf(senderCert);
      await ready();
      const before = await storedReceipt(messaging.messageId);
      if (before) return before.senderAp === senderAp ? { contentType: before.contentType, body: before.body, outcome: 'repeat' } : otherSender(messaging.messageId);

      const recipient = messaging.finalRecipient.value;
      // the inbound path routes by the SBDH: it must name the parties the signed header names,
      // or a message checked for one recipient could land with another
      const mismatch = partiesMismatch(sbdh, messaging.originalSender.value, recipient);
      if (mismatch) return signal(new As4Error('EBMS:0004', mismatch, messaging.messageId));
      const company = await findCompanyByParticipant(deps.readModels, recipient);
      if (!company) return signal(new As4Error('EBMS:0004', `unknown recipient: participant ${recipient} is not served by this Access Point`, messaging.messageId));
      try {
        await deps.receive({
          message_id: messaging.messageId, sender_participant_id: messaging.originalSender.value, receiver_participant_id: recipient,
          document_type_id: messaging.documentTypeId.value, process_id: messaging.service.value, envelope: sbdh.toString('utf8'),
        });
      } catch (error) {
        if (!(error instanceof PeppolRejectedError)) throw error;
        return signal(new As4Error('EBMS:0004', error.message, messaging.messageId));
      }

      const receipt = buildReceipt({ messageId: newMessageId(), timestamp: deps.clock.now(), refToMessageId: messaging.messageId, references }, { signingKey: deps.identity.privateKey, signingCert: deps.identity.certificate });
      await deps.readModels.query(
        `INSERT INTO as4_received_messages (message_id, sender_ap, final_recipient, receipt_content_type, receipt, received_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (message_id) DO NOTHING`,
        [messaging.messageId, senderAp, recipient, receipt.contentType, receipt.body.toString('utf8'), deps.clock.now()],
      );
      // two copies of one message at once: both answer the receipt that was kept
      const kept = await storedReceipt(messaging.messageId);
      if (kept && kept.senderAp !== senderAp) return otherSender(messaging.messageId);
      deps.log.info({ message_id: messaging.messageId, recipient }, 'AS4 message received');
      return { ...(kept ? { contentType: kept.contentType, body: kept.body } : receipt), outcome: 'receipt' };
    },
  };
}

/** Why the SBDH does not match the eb:Messaging properties (Peppol AS4 profile 2.0.3, 4.5), or null. */
function partiesMismatch(sbdh: Buffer, originalSender: string, finalRecipient: string): string | null {
  let envelope;
  try {
    envelope = readSbdh(sbdh);
  } catch (error) {
    return `the payload is not a readable SBDH: ${error instanceof Error ? error.message : String(error)}`;
  }
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  if (!same(envelope.receiver, finalRecipient)) return `the SBDH receiver ${envelope.receiver} is not the finalRecipient ${finalRecipient}`;
  if (!same(envelope.sender, originalSender)) return `the SBDH sender ${envelope.sender} is not the originalSender ${originalSender}`;
  return null;
}
