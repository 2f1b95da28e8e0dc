/**
 * Credit notes as the invoice's stream decides them: a credit note reserves what it credits from
 * what is left at the revision the caller read (If-Match), and its outcomes come back (issued,
 * released, and a full_reversal's void). The rows come from rows.ts over the allowance of the
 * credit notes that count (queued or issued, not released), so the decider and the allowance read
 * model compute what is left the same way.
 */
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import { existingInvoice, invoiceFor } from '../invoices/access.ts';
import { evolveInvoice, initialInvoiceState, type CreditNoteEntry, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../invoices/state.ts';
import type { RequestScope } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { StandingRefusal } from '../shared/preconditions.ts';
import { allowanceOf } from './allowance.ts';
import { NOTHING_LEFT, notCreditable } from './creditability.ts';
import { assertRowsFit } from './fit.ts';
import type { Allowance, CreditNoteRequest } from './model.ts';
import { creditNoteRows } from './rows.ts';

export type CreditNoteCommand =
  | {
      type: 'ReserveCreditNote';
      scope: RequestScope;
      credit_note_id: string;
      credit_note_number: string;
      request: CreditNoteRequest;
      /** false: the credit note waits (pending approval, a void's draft) and counts only when it is sent */
      counted: boolean;
      reserved_by: string;
      at: string;
    }
  | { type: 'CountCreditNote'; credit_note_id: string; at: string }
  | { type: 'RecordCreditNoteIssued'; credit_note_id: string; at: string }
  | { type: 'ReleaseCreditNote'; credit_note_id: string; why: 'failed' | 'rejected' | 'discarded'; at: string };

/** Credit notes that count against what is left: queued or issued, and not given back. */
export const countingCreditNotes = (invoice: KnownInvoice): CreditNoteEntry[] => invoice.credit_notes.filter((c) => c.counted && !c.released);

/** What the invoice has left to credit, as the read model shows it too. */
export const invoiceAllowance = (invoice: KnownInvoice): Allowance => allowanceOf(invoice, countingCreditNotes(invoice));

/**
 * The invoice a credit note is asked of, or the refusals that stand whatever the request asks and
 * whatever version the client read: not found (or not the caller's), not creditable at all. They
 * come before If-Match is asked for or compared (preconditions.ts); ReserveCreditNote makes them too.
 */
export function creditableInvoice(state: InvoiceState, scope: RequestScope): KnownInvoice {
  const invoice = invoiceFor(state, scope);
  const allowance = invoiceAllowance(invoice);
  if (!allowance.creditable) throw notCreditable(allowance.refusal ?? NOTHING_LEFT);
  return invoice;
}

/** Rule 10: a full_reversal waits for no one, so it is refused while another credit note is queued (counted, not issued yet). */
function queuedCreditNote(invoice: KnownInvoice, except?: string): CreditNoteEntry | undefined {
  return countingCreditNotes(invoice).find((c) => !c.issued && c.credit_note_id !== except);
}

// not a standing refusal: it is about what the request asks for (a full reversal), so a stale If-Match comes first
const waitsFor = (queued: CreditNoteEntry) =>
  new DomainError('not_creditable', `credit note ${queued.credit_note_number} of this invoice is still queued: a full reversal waits until it is issued or released`);

function entryOf(invoice: KnownInvoice, creditNoteId: string): CreditNoteEntry {
  const entry = invoice.credit_notes.find((c) => c.credit_note_id === creditNoteId);
  if (!entry) throw new DomainError('credit_note_not_found', 'no such credit note of this invoice');
  return entry;
}

function decide(command: CreditNoteCommand, state: InvoiceState): CreditNoteEvent[] {
  switch (command.type) {
    case 'ReserveCreditNote': {
      const invoice = invoiceFor(state, command.scope);
      if (invoice.credit_notes.some((c) => c.credit_note_id === command.credit_note_id)) return [];
      if (command.request.reason === 'full_reversal' && command.counted) {
        const queued = queuedCreditNote(invoice);
        if (queued) throw waitsFor(queued);
      }
      const rows = creditNoteRows(command.request, invoiceAllowance(invoice));
      return [{
        type: 'CreditNoteReserved',
        data: {
          invoice_id: invoice.invoice_id, credit_note_id: command.credit_note_id, credit_note_number: command.credit_note_number,
          reason: command.request.reason, rows, counted: command.counted, reserved_by: command.reserved_by, reserved_at: command.at,
        },
      }];
    }
    case 'CountCreditNote': {
      const invoice = existingInvoice(state);
      const entry = entryOf(invoice, command.credit_note_id);
      if (entry.counted) return [];
      if (entry.released) throw new StandingRefusal('invalid_status', 'the credit note was discarded');
      // what was left when it was made may have been credited since: a full reversal takes what
      // is left now; any other keeps its rows, which must still fit
      let rows = entry.rows;
      if (entry.reason === 'full_reversal') {
        const queued = queuedCreditNote(invoice, entry.credit_note_id);
        if (queued) throw waitsFor(queued);
        rows = creditNoteRows({ reason: 'full_reversal' }, invoiceAllowance(invoice));
      } else {
        assertRowsFit(entry.rows, invoiceAllowance(invoice));
      }
      return [{ type: 'CreditNoteCounted', data: { invoice_id: invoice.invoice_id, credit_note_id: entry.credit_note_id, rows, counted_at: command.at } }];
    }
    case 'RecordCreditNoteIssued': {
      const invoice = existingInvoice(state);
      const entry = entryOf(invoice, command.credit_note_id);
      // a credit note whose FS copy was rejected before its Peppol leg finished gave its amount back: it stays given back
      if (entry.issued || entry.released || !entry.counted) return [];
      const events: CreditNoteEvent[] = [{ type: 'CreditNoteIssued', data: { invoice_id: invoice.invoice_id, credit_note_id: entry.credit_note_id, issued_at: command.at } }];
      // only an issued full_reversal cancels the invoice (rule 2)
      if (entry.reason === 'full_reversal' && invoice.status !== 'voided') {
        events.push({ type: 'InvoiceVoided', data: { invoice_id: invoice.invoice_id, credit_note_id: entry.credit_note_id, voided_at: command.at } });
      }
      return events;
    }
    case 'ReleaseCreditNote': {
      const invoice = existingInvoice(state);
      const entry = entryOf(invoice, command.credit_note_id);
      if (entry.released || entry.issued) return [];
      return [{ type: 'CreditNoteReleased', data: { invoice_id: invoice.invoice_id, credit_note_id: entry.credit_note_id, why: command.why, released_at: command.at } }];
    }
  }
}

export const creditNoteDecider: Decider<CreditNoteCommand, InvoiceStreamEvent, InvoiceState> = {
  initialState: initialInvoiceState,
  decide,
  evolve: evolveInvoice,
};
