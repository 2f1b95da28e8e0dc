import type { DomainEvent } from './event.ts';
import type { InvoiceContentPayload, InvoiceTotalsPayload, RuleFindingPayload, VatCategoryCodePayload } from './invoice-document.ts';

/*
 * Credit notes against an invoice, as the invoice's own stream records them: what each credit note
 * takes from what is left, and what gives it back. The credit note's document has a stream of its
 * own (invoice-{credit_note_id}); the reservation here and that stream's first event are one
 * append across both streams.
 */

/** What a credit-note row credits in one VAT bucket; base + vat = gross exactly. Decimal strings. */
export interface CreditRowPayload {
  /** copy | return | amount | rest | rounding */
  kind: 'copy' | 'return' | 'amount' | 'rest' | 'rounding';
  vat_rate: string;
  vat_category_code: VatCategoryCodePayload;
  vat_exemption_reason_code: string | null;
  /** the invoice line a copy or return stands for (its `lines[].id`), else null */
  source_line_id: string | null;
  /** the quantity of that line copied or returned, else null */
  quantity: string | null;
  base: string;
  vat: string;
  gross: string;
}

export type CreditReasonPayload = 'full_reversal' | 'partial_credit' | 'price_correction' | 'returned_goods';

/**
 * A credit note reserved what it credits. `counted` true: it counts against what is left from now
 * on (queued for delivery, or delivered at once); false: it waits (pending approval, or a void's
 * draft) and is checked and counted again when it is sent (CreditNoteCounted).
 */
export type CreditNoteReserved = DomainEvent<
  'CreditNoteReserved',
  {
    invoice_id: string;
    credit_note_id: string;
    credit_note_number: string;
    reason: CreditReasonPayload;
    rows: CreditRowPayload[];
    counted: boolean;
    reserved_by: string;
    reserved_at: string;
  }
>;

/** A waiting credit note was sent: its rows (checked again then) count from now on. */
export type CreditNoteCounted = DomainEvent<
  'CreditNoteCounted',
  { invoice_id: string; credit_note_id: string; rows: CreditRowPayload[]; counted_at: string }
>;

/** A counted credit note was issued: it left the service (sent over Peppol, or delivered by hand), so it no longer waits in the queue. */
export type CreditNoteIssued = DomainEvent<'CreditNoteIssued', { invoice_id: string; credit_note_id: string; issued_at: string }>;

/** A credit note gives back what it reserved: its delivery failed, the receiver rejected it, or its draft was discarded. */
export type CreditNoteReleased = DomainEvent<
  'CreditNoteReleased',
  { invoice_id: string; credit_note_id: string; why: 'failed' | 'rejected' | 'discarded'; released_at: string }
>;

/** An issued full_reversal cancelled the invoice. */
export type InvoiceVoided = DomainEvent<'InvoiceVoided', { invoice_id: string; credit_note_id: string; voided_at: string }>;

export type CreditNoteEvent = CreditNoteReserved | CreditNoteCounted | CreditNoteIssued | CreditNoteReleased | InvoiceVoided;

/**
 * The first event of a credit note's own stream (invoice-{credit_note_id}), written in one append
 * with its reservation on the invoice's stream: the document (a 381 whose totals are exactly the
 * reserved rows' sums) and the invoice it credits. A credit note made this way is locked: it is
 * never edited (409 locked_credit_note), only sent, failed or rejected.
 */
export type CreditNoteCreated = DomainEvent<
  'CreditNoteCreated',
  {
    credit_note_id: string;
    organisation_id: string;
    company_id: string;
    workspace_id: string;
    created_by: string;
    credited_invoice: { invoice_id: string; invoice_number: string; issue_date: string };
    reason: CreditReasonPayload;
    content: InvoiceContentPayload;
    totals: InvoiceTotalsPayload;
    warnings: RuleFindingPayload[];
    created_at: string;
  }
>;
