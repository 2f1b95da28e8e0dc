import type { ApprovalEvent } from '../../events/approvals.ts';
import { evolveApprovalMark, type ApprovalMark } from '../approvals/approval.ts';
import type { CreditNoteCreated, CreditNoteEvent, CreditReasonPayload, CreditRowPayload } from '../../events/credit-notes.ts';
import type { InvoiceEvent, InvoiceStatus } from '../../events/invoices.ts';
import type { DeliveryEvent, InvoiceReceived } from '../../events/delivery.ts';
import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from './delivery.ts';
import type { InvoiceContent, InvoiceTotals, RuleFinding } from './model.ts';

/** Every event of an invoice stream. */
export type InvoiceStreamEvent = InvoiceEvent | DeliveryEvent | InvoiceReceived | CreditNoteEvent | CreditNoteCreated | ApprovalEvent;

/**
 * A credit note against this invoice as the invoice's stream knows it: what it credits, whether
 * that counts against what is left yet (queued or issued), whether it was issued, and whether it
 * gave its amount back (failed, rejected, discarded).
 */
export interface CreditNoteEntry {
  credit_note_id: string;
  credit_note_number: string;
  reason: CreditReasonPayload;
  rows: CreditRowPayload[];
  counted: boolean;
  issued: boolean;
  released: boolean;
}

/** The invoice as its events leave it: what the rules decide on, and what validation, UBL and history read. */
export type InvoiceState =
  | { status: 'none' }
  | {
      status: InvoiceStatus;
      /** the status before delivery started (draft, validated, pending_approval or approved) */
      authoring_status: InvoiceStatus;
      /** `api` for invoices issued here, `peppol` for inbound copies */
      source: 'api' | 'peppol';
      invoice_id: string;
      organisation_id: string;
      company_id: string;
      workspace_id: string;
      invoice_number: string;
      content: InvoiceContent;
      totals: InvoiceTotals;
      warnings: RuleFinding[];
      delivery: Delivery;
      /** the UBL as received (inbound copies only) */
      received_ubl: string | null;
      /** credit notes made against it through the credit-note route, oldest first */
      credit_notes: CreditNoteEntry[];
      /** a credit note made through the credit-note route: the invoice it credits (it is locked); null otherwise */
      credited_invoice: { invoice_id: string; invoice_number: string; issue_date: string; reason: CreditReasonPayload } | null;
      /** the latest approval request, as a PUT and a send need it (commands/approvals); null: never asked */
      approval: ApprovalMark | null;
    };

export type KnownInvoice = Exclude<InvoiceState, { status: 'none' }>;

export const initialInvoiceState: InvoiceState = { status: 'none' };

/** A document issued through this service starts as a draft: an invoice, or a credit note made through the credit-note route. */
function issuedHere(d: Pick<KnownInvoice, 'invoice_id' | 'organisation_id' | 'company_id' | 'workspace_id' | 'content' | 'totals' | 'warnings' | 'credited_invoice'>): KnownInvoice {
  return {
    status: 'draft', authoring_status: 'draft', source: 'api', invoice_id: d.invoice_id, organisation_id: d.organisation_id, company_id: d.company_id,
    workspace_id: d.workspace_id, invoice_number: d.content.invoice_number, content: d.content, totals: d.totals, warnings: d.warnings,
    delivery: NO_DELIVERY, received_ubl: null, credit_notes: [], credited_invoice: d.credited_invoice, approval: null,
  };
}

export function evolveInvoice(state: InvoiceState, event: InvoiceStreamEvent): InvoiceState {
  switch (event.type) {
    case 'InvoiceCreated':
      return issuedHere({ ...event.data, credited_invoice: null });
    case 'CreditNoteCreated':
      return issuedHere({ ...event.data, invoice_id: event.data.credit_note_id, credited_invoice: { ...event.data.credited_invoice, reason: event.data.reason } });
    case 'InvoiceReceived': {
      const delivery = evolveDelivery(NO_DELIVERY, event);
      return {
        status: deliveryStatus(delivery) ?? 'delivered', authoring_status: 'draft', source: 'peppol',
        invoice_id: event.data.invoice_id, organisation_id: event.data.organisation_id, company_id: event.data.company_id,
        workspace_id: event.data.workspace_id, invoice_number: event.data.content.invoice_number,
        content: event.data.content, totals: event.data.totals, warnings: [], delivery, received_ubl: event.data.ubl, credit_notes: [], credited_invoice: null,
        approval: null,
      };
    }
    case 'InvoiceUpdated':
      if (state.status === 'none') return state;
      // a failed send that never reached the buyer can be corrected: it is a draft again, the legs reset
      return {
        ...state, status: 'draft', authoring_status: 'draft', content: event.data.content, totals: event.data.totals,
        warnings: event.data.warnings, delivery: NO_DELIVERY,
      };
    case 'InvoiceValidated':
      return state.status === 'none' ? state : { ...state, status: 'validated', authoring_status: 'validated' };
    // approvals (commands/approvals/ keeps the record): a rejected request is a draft again, never
    // `rejected`, which is the receiver's refusal; a void follows the change that made it (a draft already)
    case 'InvoiceApprovalRequested':
      return state.status === 'none' ? state : { ...state, status: 'pending_approval', authoring_status: 'pending_approval', approval: evolveApprovalMark(state.approval, event) };
    case 'InvoiceApproved':
      return state.status === 'none' ? state : { ...state, status: 'approved', authoring_status: 'approved', approval: evolveApprovalMark(state.approval, event) };
    case 'InvoiceApprovalRejected':
      return state.status === 'none' ? state : { ...state, status: 'draft', authoring_status: 'draft', approval: evolveApprovalMark(state.approval, event) };
    case 'InvoiceApprovalVoided':
      return state.status === 'none' ? state : { ...state, approval: evolveApprovalMark(state.approval, event) };
    case 'CreditNoteReserved':
    case 'CreditNoteCounted':
    case 'CreditNoteIssued':
    case 'CreditNoteReleased':
    case 'InvoiceVoided':
      return state.status === 'none' ? state : evolveCredits(state, event);
    default: {
      if (state.status === 'none') return state;
      const delivery = evolveDelivery(state.delivery, event);
      // a voided invoice stays voided whatever its legs report later (an FS verdict on the original)
      if (state.status === 'voided') return { ...state, delivery };
      return { ...state, delivery, status: deliveryStatus(delivery) ?? state.authoring_status };
    }
  }
}

/** The credit-note events of the invoice's stream: its entries change; only a void changes its status. */
function evolveCredits(state: KnownInvoice, event: CreditNoteEvent): KnownInvoice {
  if (event.type === 'InvoiceVoided') return { ...state, status: 'voided', authoring_status: 'voided' };
  return { ...state, credit_notes: evolveCreditNotes(state.credit_notes, event) };
}

/** An invoice's credit-note entries after one credit-note event (the decider's state and the allowance read model both fold with it). */
export function evolveCreditNotes(entries: readonly CreditNoteEntry[], event: CreditNoteEvent): CreditNoteEntry[] {
  if (event.type === 'CreditNoteReserved') {
    const { credit_note_id, credit_note_number, reason, rows, counted } = event.data;
    return [...entries, { credit_note_id, credit_note_number, reason, rows, counted, issued: false, released: false }];
  }
  const change = creditNoteEntryChange(event);
  return change ? entries.map((e) => (e.credit_note_id === change.credit_note_id ? { ...e, ...change.fields } : e)) : [...entries];
}

/**
 * What a credit-note event changes on its credit note's entry: fields set over it, whatever it
 * held before (so changes compose by merging, which lets the allowance read model apply a batch of
 * them in SQL). Null for a reservation (a new entry) and a void (no entry changes).
 */
export function creditNoteEntryChange(event: CreditNoteEvent): { credit_note_id: string; fields: Partial<CreditNoteEntry> } | null {
  switch (event.type) {
    case 'CreditNoteCounted':
      return { credit_note_id: event.data.credit_note_id, fields: { rows: event.data.rows, counted: true } };
    case 'CreditNoteIssued':
      return { credit_note_id: event.data.credit_note_id, fields: { issued: true } };
    case 'CreditNoteReleased':
      return { credit_note_id: event.data.credit_note_id, fields: { released: true } };
    case 'CreditNoteReserved':
    case 'InvoiceVoided':
      return null;
  }
}
