import type { As4MessageReceived } from '../../events/delivery.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { stableUuid } from '../shared/stable-id.ts';

/**
 * Our Access Point as corner 3 keeps each AS4 message it took, with the signed receipt it gave
 * (issue 38, item 2): a sender that lost the receipt repeats the same eb:MessageId and must get
 * that receipt again, and no second copy. One stream per message id; the receipt is the event.
 */
/** The event's facts, named by the receiver; `sender_ap` is the CN of the certificate that signed the message. */
export type As4InboundCommand = { type: 'RecordAs4MessageReceived'; at: string } & Omit<As4MessageReceived['data'], 'received_at'>;

export type As4InboundState =
  | { status: 'none' }
  | { status: 'received'; sender_ap: string; receipt_content_type: string; receipt: string };

/** The stream of one received message: its id is any legal msg-id, so it is named by a digest of it. */
export const as4InboundStream = (messageId: string): string => `as4-in-${stableUuid('as4-message-id', messageId)}`;

/**
 * The receipt a message with this state was answered with, when `senderAp` repeats it; null when
 * the id is new. The same id from another Access Point is another message: it is refused, and is
 * not given this one's receipt.
 */
export function receiptOfRepeat(state: As4InboundState, senderAp: string, messageId: string): { contentType: string; receipt: string } | null {
  if (state.status === 'none') return null;
  if (state.sender_ap !== senderAp) throw new DomainError('as4_message_id_taken', `eb:MessageId ${messageId} was already used by another Access Point`);
  return { contentType: state.receipt_content_type, receipt: state.receipt };
}

export const as4InboundDecider: Decider<As4InboundCommand, As4MessageReceived, As4InboundState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    if (state.status === 'none') {
      const { type: _type, at, ...data } = command;
      return [{ type: 'As4MessageReceived', data: { ...data, received_at: at } }];
    }
    receiptOfRepeat(state, command.sender_ap, command.message_id);
    return []; // a repeat: the kept receipt is answered
  },
  evolve(_state, event) {
    const { sender_ap, receipt_content_type, receipt } = event.data;
    return { status: 'received', sender_ap, receipt_content_type, receipt };
  },
};
