/**
 * What a credit note's delivery means for the invoice it credits, read from its two legs: once
 * its Peppol leg has reached the buyer (sent, delivered) or it was delivered by hand, it is
 * issued; when its Peppol leg failed or the buyer's Access Point rejected it, or FS rejected its copy before the buyer had it, it gives
 * its amount back. An issued credit note stays counted whatever FS says later: the buyer holds
 * it, and its filing is corrected by filing again, not by crediting anew.
 */
import type { KnownInvoice } from '../invoices/state.ts';
import type { CreditNoteCommand } from './decider.ts';

export function creditNoteOutcome(creditNote: KnownInvoice, at: string): CreditNoteCommand | null {
  if (!creditNote.credited_invoice) return null;
  const { peppol, fs } = creditNote.delivery;
  const credit_note_id = creditNote.invoice_id;
  if (peppol.status === 'sent' || peppol.status === 'delivered' || peppol.status === 'manual') return { type: 'RecordCreditNoteIssued', credit_note_id, at };
  if (peppol.status === 'failed') return { type: 'ReleaseCreditNote', credit_note_id, why: 'failed', at };
  if (peppol.status === 'rejected') return { type: 'ReleaseCreditNote', credit_note_id, why: 'rejected', at };
  if (fs.status === 'rejected') return { type: 'ReleaseCreditNote', credit_note_id, why: 'rejected', at };
  return null;
}
