import type { CreditNoteEntry } from '../../../commands/invoices/state.ts';
import {
  creditNoteFacts, creditNoteGross, settleCreditNotes, settleInvoice, settleStandaloneCreditNote, type CreditNoteSettlement, type InvoiceFacts, type PaymentStatus,
} from '../../../commands/payments/settlement.ts';
import { isIssued } from '../../../commands/payments/payable.ts';
import type { InvoiceStatus } from '../../../events/invoices.ts';
import type { InvoiceDetailRow } from '../../../projections/invoices/rows.ts';
import { invoiceSettlementFacts, paymentTotals, type InvoiceSettlementFacts } from '../../../projections/payments/queries.ts';
import type { Core } from '../../platform/core.ts';

/** A credit note of an invoice as the invoice's read lists it. */
interface CreditNoteSummary {
  id: string;
  credit_note_number: string;
  reason: string;
  total_gross: string;
  /** `waiting` (a void's draft, up for approval), `queued`, `issued`, or `released` (failed, rejected, discarded: it credits nothing) */
  state: 'waiting' | 'queued' | 'issued' | 'released';
}

/** What a single-document read shows of credit notes and payments (commands/payments/settlement.ts computes it). */
export interface SettlementFields {
  credited_amount: string;
  amount_due: string;
  /** an invoice's; null on a credit note (its `settlement` says what is refunded and due) */
  payment_status: PaymentStatus | null;
  credit_notes: CreditNoteSummary[];
  settlement: CreditNoteSettlement | null;
}

export type SettlementReader = (row: InvoiceDetailRow) => Promise<SettlementFields>;

const stateOf = (entry: CreditNoteEntry): CreditNoteSummary['state'] =>
  entry.released ? 'released' : entry.issued ? 'issued' : entry.counted ? 'queued' : 'waiting';

/** A document that nothing credited or paid yet: what a create answers without reading anything. */
export function freshSettlement(row: Pick<InvoiceDetailRow, 'document' | 'status'>): SettlementFields {
  const { totals, credited_invoice, content } = row.document;
  if (credited_invoice || content.invoice_type === '381') {
    const settlement = settleStandaloneCreditNote({ gross: totals.total_gross, issued: false, refunded: '0.00' });
    return { credited_amount: '0.00', amount_due: settlement.amount_due, payment_status: null, credit_notes: [], settlement: credited_invoice ? { ...settlement, credited_invoice_id: credited_invoice.invoice_id } : settlement };
  }
  const settled = settleInvoice({ invoice_id: '', total_gross: totals.amount_due, paid: '0.00', credit_notes: [] });
  return { credited_amount: settled.credited_amount, amount_due: settled.amount_due, payment_status: settled.payment_status, credit_notes: [], settlement: null };
}

/**
 * Reads what the settlement formula needs for one document, in one statement: its invoice's
 * credit notes (the credit-note read model) and the payments and refunds on the invoice and each
 * of them (the payments read model). An invoice is owed from its payable amount.
 */
export function settlementReader(deps: Pick<Core, 'readModels'>): SettlementReader {
  return async (row) => {
    const credited = row.document.credited_invoice;
    const invoiceId = credited?.invoice_id ?? row.id;
    if (!credited && row.document.content.invoice_type === '381') {
      const refunded = (await paymentTotals(deps.readModels, [row.id])).get(row.id)?.refunded ?? '0.00';
      const settlement = settleStandaloneCreditNote({ gross: row.document.totals.total_gross, issued: isIssued(row.status as InvoiceStatus), refunded });
      return { credited_amount: '0.00', amount_due: settlement.amount_due, payment_status: null, credit_notes: [], settlement };
    }
    return settledFrom(row, await invoiceSettlementFacts(deps.readModels, invoiceId));
  };
}

/**
 * The settlement fields of a document that is not a standalone credit note, from the facts of
 * its invoice (the invoice credited, for a credit note; null when the register lacks it).
 */
export function settledFrom(row: InvoiceDetailRow, credits: InvoiceSettlementFacts | null): SettlementFields {
  if (!credits) return freshSettlement(row);
  const credited = row.document.credited_invoice;
  const invoiceId = credited?.invoice_id ?? row.id;
  const { totals } = credits;
  const facts: InvoiceFacts = {
    invoice_id: invoiceId, total_gross: credits.payable, paid: totals.get(invoiceId)?.paid ?? '0.00',
    credit_notes: credits.credit_notes.map((c) => creditNoteFacts(c, totals.get(c.credit_note_id)?.refunded ?? '0.00')),
  };
  if (credited) {
    const settlement = settleCreditNotes(facts).get(row.id) ?? settleStandaloneCreditNote({ gross: row.document.totals.total_gross, issued: false, refunded: '0.00' });
    return { credited_amount: '0.00', amount_due: settlement.amount_due, payment_status: null, credit_notes: [], settlement: { ...settlement, credited_invoice_id: invoiceId } };
  }
  const settled = settleInvoice(facts);
  return {
    credited_amount: settled.credited_amount, amount_due: settled.amount_due, payment_status: settled.payment_status, settlement: null,
    credit_notes: credits.credit_notes.map((c) => ({ id: c.credit_note_id, credit_note_number: c.credit_note_number, reason: c.reason, total_gross: creditNoteGross(c), state: stateOf(c) })),
  };
}
