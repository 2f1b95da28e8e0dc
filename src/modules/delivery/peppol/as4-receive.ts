/**
 * Our Access Point as corner 3 (issue 38, item 2): what `POST /as4` does with a request body.
 * The codec reads and checks the UserMessage (sender's certificate, signature with the attachment,
 * decryption, decompression); then the final recipient must be a company of this service; then the
 * SBDH takes today's inbound path unchanged (src/modules/delivery/inbound.ts), and the answer is a
 * signed Receipt. Any refusal is an ebMS Error signal and creates nothing.
 *
 * A repeated eb:MessageId (a sender retrying after a lost receipt) gets the receipt it got the
 * first time, kept as the message's own event (As4MessageReceived, commands/delivery/as4-inbound.ts);
 * the inbound path itself is idempotent by the SBDH instance id, so a crash between the two cannot
 * make a second copy. The sender is the verified signing certificate's CN, not the PartyId the
 * message claims: the same id from another Access Point is refused.
 */
import { randomUUID, type KeyObject, type X509Certificate } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { as4InboundDecider, as4InboundStream, receiptOfRepeat, type As4InboundState } from '../../../../commands/delivery/as4-inbound.ts';
import { DomainError } from '../../../../commands/shared/domain-error.ts';
import { findCompanyByParticipant } from '../../../../projections/tenancy/queries.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { systemMetadata } from '../../invoices/index.ts';
import { As4Error, buildErrorSignal, buildReceipt, ebmsMessageId, readUserMessage, type SoapResponse } from './as4/index.ts';
import { PeppolRejectedError } from './peppol-network.ts';
import type { InboundPeppolMessage } from '../inbound.ts';
import { isOurMlsParticipant, MLS_DOCUMENT_TYPE_ID, SK_TAX_DATA_DOCUMENT_TYPE_ID, sameParticipant } from './identifiers.ts';
import { commonNameOf, subjectOf } from './pki/names.ts';
import { readSbdh } from './sbdh.ts';

export interface As4ReceiverDeps extends Pick<Core, 'store' | 'ids'> {
  identity: { certificate: X509Certificate; privateKey: KeyObject; commonName: string | undefined };
  /** the PKI's verdict on a sender's certificate: null when trusted, else why not (pki/distrust.ts) */
  trustSender: (certificate: X509Certificate) => Promise<string | null>;
  readModels: DataSource;
  /** today's inbound path (inbound.ts): idempotent by the SBDH instance id */
  receive: (message: InboundPeppolMessage) => Promise<unknown>;
  /** our SPIS participant: an MLS addressed to it (or under it) is ours to take */
  ourSpis: string;
  /** FS_CORNER5=sandbox: the FS participant we serve ourselves (a TDD addressed to it is ours to take); else null */
  corner5Participant?: string | null;
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

  const kept = (state: As4InboundState): SoapResponse | null =>
    state.status === 'received' ? { contentType: state.receipt_content_type, body: Buffer.from(state.receipt, 'utf8') } : null;

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
      const stream = as4InboundStream(messaging.messageId);
      const refused = (error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
        return signal(new As4Error('EBMS:0004', error.message, messaging.messageId));
      };
      try {
        const repeat = receiptOfRepeat((await readAndFold(deps.store, stream, as4InboundDecider)).state, senderAp, messaging.messageId);
        if (repeat) return { contentType: repeat.contentType, body: Buffer.from(repeat.receipt, 'utf8'), outcome: 'repeat' };
      } catch (error) {
        return refused(error);
      }

      const recipient = messaging.finalRecipient.value;
      // the inbound path routes by the SBDH: it must name the parties the signed header names,
      // or a message checked for one recipient could land with another
      const mismatch = partiesMismatch(sbdh, messaging.originalSender.value, recipient);
      if (mismatch) return signal(new As4Error('EBMS:0004', mismatch, messaging.messageId));
      const type = messaging.documentTypeId.value;
      const ours = (type === MLS_DOCUMENT_TYPE_ID && isOurMlsParticipant(deps.ourSpis, recipient))
        || (type === SK_TAX_DATA_DOCUMENT_TYPE_ID && !!deps.corner5Participant && sameParticipant(recipient, deps.corner5Participant));
      const company = ours || (await findCompanyByParticipant(deps.readModels, recipient));
      if (!company) return signal(new As4Error('EBMS:0004', `unknown recipient: participant ${recipient} is not served by this Access Point`, messaging.messageId));
      try {
        await deps.receive({
          message_id: messaging.messageId, sender_participant_id: messaging.originalSender.value, receiver_participant_id: recipient,
          document_type_id: messaging.documentTypeId.value, process_id: messaging.service.value, envelope: sbdh.toString('utf8'), sending_ap: senderAp,
        });
      } catch (error) {
        if (!(error instanceof PeppolRejectedError)) throw error;
        return signal(new As4Error('EBMS:0004', error.message, messaging.messageId));
      }

      const receiptId = newMessageId();
      const receipt = buildReceipt({ messageId: receiptId, timestamp: deps.clock.now(), refToMessageId: messaging.messageId, references }, { signingKey: deps.identity.privateKey, signingCert: deps.identity.certificate });
      let handled;
      try {
        handled = await handleCommand(deps, stream, as4InboundDecider, {
          type: 'RecordAs4MessageReceived', message_id: messaging.messageId, sender_ap: senderAp,
          original_sender: messaging.originalSender.value, final_recipient: recipient, document_type_id: messaging.documentTypeId.value,
          process_id: messaging.service.value, receipt_message_id: receiptId, receipt_content_type: receipt.contentType,
          receipt: receipt.body.toString('utf8'), at: deps.clock.now().toISOString(),
        }, { metadata: systemMetadata('as4-receiver', messaging.messageId), expected: { retry: { onVersionConflict: 3 } } });
      } catch (error) {
        return refused(error);
      }
      deps.log.info({ message_id: messaging.messageId, recipient }, 'AS4 message received');
      // two copies of one message at once: both answer the receipt that was kept
      return { ...(kept(handled.state) ?? receipt), outcome: 'receipt' };
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
