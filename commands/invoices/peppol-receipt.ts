import type { As4ReceiptRecord, PeppolMessageSent } from '../../events/delivery.ts';
import { DomainError } from '../shared/domain-error.ts';
import type { KnownInvoice } from './state.ts';

/** The proof an auditor is shown: what the receiving Access Point signed for the invoice's Peppol message. */
export type KeptReceipt = NonNullable<As4ReceiptRecord> & { peppol_message_id: string; sent_at: string };

const isSent = (event: { type: string; data: unknown }): event is PeppolMessageSent => event.type === 'PeppolMessageSent';

/**
 * The signed AS4 receipt kept for the invoice's current Peppol message (the one its delivery
 * names; a send is recorded once per message). None when the invoice was not sent over AS4: not
 * sent yet, sent in the sandbox, finished by hand, or sent before receipts were kept (those read
 * `as4: null`): `peppol_receipt_not_found`, with the leg's status so the caller sees why.
 */
export function peppolReceiptOf(invoice: KnownInvoice, events: readonly { type: string; data: unknown }[]): KeptReceipt {
  const { peppol } = invoice.delivery;
  const sent = events.filter(isSent).filter((e) => e.data.peppol_message_id === peppol.message_id).at(-1);
  // `!as4` and not `=== null`: an event written v1-shaped by a tool that skips the decider lacks it
  if (!peppol.message_id || !sent?.data.as4) {
    throw new DomainError('peppol_receipt_not_found', 'the invoice has no AS4 receipt: it was not sent over AS4 (not sent yet, sandbox, or marked sent)', {
      peppol_status: peppol.status,
    });
  }
  return { ...sent.data.as4, peppol_message_id: sent.data.peppol_message_id, sent_at: sent.data.sent_at };
}
