import { NO_DELIVERY, type Delivery } from '../../commands/invoices/delivery.ts';
import type { InvoiceContent, InvoiceTotals, RuleFinding } from '../../commands/invoices/model.ts';
import type { CreditNoteCreated } from '../../events/credit-notes.ts';
import type { InvoiceCreated } from '../../events/invoices.ts';
import { foldText } from '../shared/fold.ts';

/* The invoice register's rows and the pure mapping from events to them: the projector writes
   them, the queries read them, and HTTP answers a create with one without touching either. */

export interface InvoiceRow {
  id: string;
  organisation_id: string;
  company_id: string;
  workspace_id: string;
  invoice_number: string;
  invoice_type: string;
  status: string;
  issue_date: string;
  due_date: string | null;
  currency_code: string;
  supplier_name: string;
  buyer_name: string;
  buyer_vat_id: string;
  customer_id: string | null;
  total_net: string;
  total_vat: string;
  total_gross: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  version: number;
  /** `api` for invoices issued here, `peppol` for inbound copies */
  source: 'api' | 'peppol';
  peppol_message_id: string | null;
  fs_submission_id: string | null;
}
export type InvoiceDetailRow = InvoiceRow & { document: InvoiceDocument; delivery: Delivery | null };


/** What the detail read returns besides the columns: the content and totals as decided. */
export interface InvoiceDocument {
  content: InvoiceContent;
  totals: InvoiceTotals;
  warnings: RuleFinding[];
  /** a credit note made through the credit-note route: the invoice it credits, and why */
  credited_invoice?: CreditedInvoice;
}

interface CreditedInvoice {
  invoice_id: string;
  invoice_number: string;
  issue_date: string;
  reason: string;
}

const searchText = (c: InvoiceContent) => foldText(`${c.invoice_number} ${c.supplier.name} ${c.buyer.name}`);

/** One new row (a created or a received invoice), in the shape jsonb_to_recordset reads. */
export interface NewRow {
  id: string; organisation_id: string; company_id: string; workspace_id: string; invoice_number: string; invoice_type: string;
  status: string; issue_date: string; due_date: string | null; currency_code: string; supplier_name: string; buyer_name: string;
  buyer_vat_id: string; customer_id: string | null; total_net: string; total_vat: string; total_gross: string; search: string;
  created_by: string; created_at: string; version: number; document: InvoiceDocument; source: 'api' | 'peppol';
  peppol_message_id: string | null; delivery: Delivery;
  /** set when delivery steps of the same batch were folded in (the projector's withDeliveryFolded) */
  fs_submission_id?: string | null; updated_at?: string;
}

export function newRow(content: InvoiceContent, totals: InvoiceTotals, rest: Omit<NewRow, keyof ReturnType<typeof contentFields>>): NewRow {
  return { ...contentFields(content, totals), ...rest };
}

export function contentFields(c: InvoiceContent, t: InvoiceTotals) {
  return {
    invoice_number: c.invoice_number, invoice_type: c.invoice_type, issue_date: c.issue_date, due_date: c.due_date, currency_code: c.currency_code,
    supplier_name: c.supplier.name, buyer_name: c.buyer.name, buyer_vat_id: c.buyer.vat_id, customer_id: c.customer_id,
    total_net: t.total_net, total_vat: t.total_vat, total_gross: t.total_gross, search: searchText(c),
  };
}

/** The row of an invoice issued here, as its InvoiceCreated (at `revision`) makes it. */
export function createdRow(d: InvoiceCreated['data'], revision: number): NewRow {
  return newRow(d.content, d.totals, {
    id: d.invoice_id, organisation_id: d.organisation_id, company_id: d.company_id, workspace_id: d.workspace_id, status: 'draft',
    created_by: d.created_by, created_at: d.created_at, version: revision, document: { content: d.content, totals: d.totals, warnings: d.warnings },
    source: 'api', peppol_message_id: null, delivery: NO_DELIVERY,
  });
}

/** The row of a credit note made through the credit-note route: a draft of its own, naming the invoice it credits. */
export function creditNoteRow(d: CreditNoteCreated['data'], revision: number): NewRow {
  const credited_invoice: CreditedInvoice = { ...d.credited_invoice, reason: d.reason };
  return newRow(d.content, d.totals, {
    id: d.credit_note_id, organisation_id: d.organisation_id, company_id: d.company_id, workspace_id: d.workspace_id, status: 'draft',
    created_by: d.created_by, created_at: d.created_at, version: revision,
    document: { content: d.content, totals: d.totals, warnings: d.warnings, credited_invoice }, source: 'api', peppol_message_id: null, delivery: NO_DELIVERY,
  });
}

/**
 * The same row as its detail read returns it: what the create answers without reading the row
 * back (the create's test proves it equal to a GET).
 */
export function createdInvoiceRow(d: InvoiceCreated['data'], revision: number): InvoiceDetailRow {
  const { search: _search, created_at, ...row } = createdRow(d, revision);
  const created = new Date(created_at);
  return { ...row, created_at: created, updated_at: created, fs_submission_id: null };
}
