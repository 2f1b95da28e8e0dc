import type { SapiDocumentSent } from '../../events/sapi-documents.ts';
import type { KeptReceipt } from '../invoices/peppol-receipt.ts';
import { DomainError } from '../shared/domain-error.ts';

const isSent = (event: { type: string; data: unknown }): event is SapiDocumentSent => event.type === 'SapiDocumentSent';

/**
 * The signed AS4 receipt kept when a SAPI-SK document was SENT (one send per document). None when
 * it was not sent over AS4: not SENT (yet), the sandbox network, or sent before receipts were kept.
 */
export function sapiReceiptOf(events: readonly { type: string; data: unknown }[]): KeptReceipt {
  const sent = events.filter(isSent).at(-1);
  // `!as4` and not `=== null`: an event written v1-shaped by a tool that skips the decider lacks it
  if (!sent?.data.as4) throw new DomainError('peppol_receipt_not_found', 'the document has no AS4 receipt: it was not sent over AS4 (not SENT yet, or the sandbox)');
  return { ...sent.data.as4, peppol_message_id: sent.data.peppol_message_id, sent_at: sent.data.sent_at };
}
