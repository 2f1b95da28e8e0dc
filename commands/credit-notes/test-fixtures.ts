// Fixtures shared by the credit-note tests: an issued invoice of given lines, and credit notes over it.
import { expect } from 'chai';
import { NO_DELIVERY } from '../invoices/delivery.ts';
import type { KnownInvoice } from '../invoices/decider.ts';
import type { InvoiceLine } from '../invoices/model.ts';
import { content } from '../invoices/test-fixtures.ts';
import { computeTotals } from '../invoices/totals.ts';
import { allowanceOf } from './allowance.ts';
import { CreditLimitExceeded, type CreditLimitDetail } from './credit-limit.ts';
import type { Allowance, CreditAmount, CreditedNote, CreditNoteRequest, CreditRow } from './model.ts';
import { creditNoteRows } from './rows.ts';

export function line(line_number: number, fields: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    line_number, item_name: `Item ${line_number}`, quantity: '1', unit_code: 'C62', unit_price: '100.00', vat_rate: '23', vat_category_code: 'S',
    vat_exemption_reason_code: null, discount_percentage: null, discount_amount: null, ...fields,
  };
}

/** An invoice of these lines that has been delivered over Peppol: creditable. */
export function issued(lines: InvoiceLine[], fields: Partial<KnownInvoice> = {}): KnownInvoice {
  const c = { ...content, lines };
  return {
    status: 'delivered', authoring_status: 'validated', source: 'api', invoice_id: 'inv-1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1',
    invoice_number: c.invoice_number, content: c, totals: computeTotals(c), warnings: [], received_ubl: null, credit_notes: [], credited_invoice: null, approval: null,
    delivery: { ...NO_DELIVERY, peppol: { ...NO_DELIVERY.peppol, status: 'delivered' } }, ...fields,
  } as KnownInvoice;
}

/** Credit notes in a row, each counted once made: the allowance after them and every note's rows. */
export function credit(invoice: KnownInvoice, ...requests: CreditNoteRequest[]): { allowance: Allowance; notes: CreditedNote[] } {
  const notes: CreditedNote[] = [];
  for (const [i, request] of requests.entries()) {
    const rows = creditNoteRows(request, allowanceOf(invoice, notes));
    notes.push({ credit_note_id: `cn-${i + 1}`, reason: request.reason, rows });
  }
  return { allowance: allowanceOf(invoice, notes), notes };
}

/** The rows the request makes against the invoice after earlier requests. */
export function rowsAfter(invoice: KnownInvoice, earlier: CreditNoteRequest[], request: CreditNoteRequest): CreditRow[] {
  return creditNoteRows(request, credit(invoice, ...earlier).allowance);
}

export const partial = (...amounts: CreditAmount[]): CreditNoteRequest => ({ reason: 'partial_credit', amounts });
export const returned = (...lines: { source_line_id: string; quantity: string }[]): CreditNoteRequest => ({ reason: 'returned_goods', lines });
export const fullReversal: CreditNoteRequest = { reason: 'full_reversal' };

/** The details of the credit_limit_exceeded `run` throws, checked to be the spec's 422 flavour 3. */
export function refusal(run: () => unknown): CreditLimitDetail[] {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(CreditLimitExceeded);
    const refused = error as CreditLimitExceeded;
    expect(refused).to.deep.include({ code: 'credit_limit_exceeded' });
    expect(refused.extra).to.deep.equal({ details: refused.details });
    return refused.details;
  }
  return expect.fail('expected credit_limit_exceeded');
}
