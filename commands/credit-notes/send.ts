/**
 * Sending a credit note that waited (a void's draft, or one that was up for approval): it counts
 * against its invoice only now, so the invoice's stream decides again (CountCreditNote: its rows
 * must still fit; a full reversal takes what is left now, and waits while another credit note is
 * queued) and the credit note's stream is sent as any document is (send or mark-sent), in one
 * write over both streams. When a full reversal's rows changed since its draft, the document is
 * made again from them before it leaves, dated the day it is sent; its note stays.
 */
import type { CreditNoteCounted, CreditNoteEvent } from '../../events/credit-notes.ts';
import type { InvoiceUpdated } from '../../events/invoices.ts';
import { existingInvoice } from '../invoices/access.ts';
import type { CodeLists } from '../invoices/code-lists.ts';
import { decideDelivery, type DeliveryCommand } from '../invoices/delivery-decisions.ts';
import { checkInvoice } from '../invoices/rules.ts';
import { evolveInvoice, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../invoices/state.ts';
import { StandingRefusal } from '../shared/preconditions.ts';
import { creditNoteDecider } from './decider.ts';
import { creditNoteDocument } from './document.ts';

/**
 * Whether the document is a credit note whose reservation on its invoice does not count yet. One
 * that gave its amount back (its Peppol delivery failed, FS rejected it, its draft was discarded)
 * is never sent again, by Peppol or by hand: what it credited may be credited by another since,
 * so a new credit note is made instead (409 invalid_status).
 */
export function waitsToCount(creditNote: KnownInvoice, invoice: InvoiceState): boolean {
  if (!creditNote.credited_invoice || invoice.status === 'none') return false;
  const entry = invoice.credit_notes.find((c) => c.credit_note_id === creditNote.invoice_id);
  if (entry?.released) {
    throw new StandingRefusal('invalid_status', `credit note ${entry.credit_note_number} gave its amount back (${creditNote.status}): make a new credit note instead`, { status: creditNote.status });
  }
  return entry !== undefined && !entry.counted;
}

export interface SendWaitingCreditNote {
  /** the client's send or mark-sent, as the delivery decider takes it */
  delivery: Extract<DeliveryCommand, { type: 'SendInvoice' | 'MarkSent' }>;
  code_lists: CodeLists;
  sent_by: string;
  at: string;
}

interface WaitingCreditNoteSent {
  invoice: CreditNoteEvent[];
  creditNote: InvoiceStreamEvent[];
  state: KnownInvoice;
}

export function decideWaitingCreditNoteSend(command: SendWaitingCreditNote, creditNote: KnownInvoice, invoiceState: InvoiceState): WaitingCreditNoteSent {
  const invoice = existingInvoice(invoiceState);
  // its own status first: one up for approval is refused as a send (409), whatever is left
  decideDelivery(command.delivery, creditNote);
  const counted = creditNoteDecider.decide({ type: 'CountCreditNote', credit_note_id: creditNote.invoice_id, at: command.at }, invoice) as CreditNoteEvent[];
  const count = counted.find((e): e is CreditNoteCounted => e.type === 'CreditNoteCounted');
  const entry = invoice.credit_notes.find((c) => c.credit_note_id === creditNote.invoice_id);
  const events: InvoiceStreamEvent[] = [];
  let state: InvoiceState = creditNote;
  if (count && entry && JSON.stringify(count.data.rows) !== JSON.stringify(entry.rows)) {
    const issueDate = command.at.slice(0, 10);
    const made = creditNoteDocument(invoice, count.data.rows, { credit_note_number: creditNote.invoice_number, issue_date: issueDate, reason: entry.reason, note: null });
    const content = { ...made.content, note: creditNote.content.note };
    const updated: InvoiceUpdated = {
      type: 'InvoiceUpdated',
      data: { invoice_id: creditNote.invoice_id, updated_by: command.sent_by, content, totals: made.totals, warnings: checkInvoice(content, command.code_lists), updated_at: command.at },
    };
    events.push(updated);
    state = evolveInvoice(state, updated);
  }
  const sent = decideDelivery(command.delivery, state) as InvoiceStreamEvent[];
  events.push(...sent);
  state = sent.reduce(evolveInvoice, state);
  if (state.status === 'none') throw new Error('a sent credit note exists');
  // delivered by hand: issued in the same write (a full reversal voids its invoice now)
  const issued = command.delivery.type === 'MarkSent'
    ? creditNoteDecider.decide({ type: 'RecordCreditNoteIssued', credit_note_id: creditNote.invoice_id, at: command.at }, counted.reduce(evolveInvoice, invoice as InvoiceState)) as CreditNoteEvent[]
    : [];
  return { invoice: [...counted, ...issued], creditNote: events, state };
}
