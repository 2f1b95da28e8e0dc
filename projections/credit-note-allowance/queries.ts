import type { DataSource } from 'typeorm';
import { invoiceAllowance } from '../../commands/credit-notes/decider.ts';
import type { Allowance } from '../../commands/credit-notes/model.ts';
import { NO_DELIVERY, type Delivery } from '../../commands/invoices/delivery.ts';
import type { CreditNoteEntry, KnownInvoice } from '../../commands/invoices/state.ts';
import type { InvoiceStatus } from '../../events/invoices.ts';
import { invoiceStream } from '../../events/invoices.ts';
import { INVOICE_REGISTER } from '../invoices/queries.ts';
import type { InvoiceDocument } from '../invoices/rows.ts';

/** The projector's name, under which projection_failures records what it parked. */
export const CREDIT_NOTE_ALLOWANCE = 'credit-note-allowance';

interface Joined {
  id: string; organisation_id: string; company_id: string; workspace_id: string; invoice_number: string; status: InvoiceStatus;
  source: 'api' | 'peppol'; document: InvoiceDocument; delivery: Delivery | null; version: number;
  credit_notes: CreditNoteEntry[] | null; voided: boolean | null; credits_version: number | null;
}

/**
 * The allowance of an invoice of the organisation (and of the company, when one is named), or
 * null: the register's row and the invoice's credit notes, put through the decider's own
 * function, so it shows exactly what a credit note would be checked against. The version is the
 * invoice stream's (what If-Match takes).
 */
export async function getAllowance(db: DataSource, scope: { organisationId: string; companyId: string | null }, invoiceId: string): Promise<{ allowance: Allowance; version: number; read: string } | null> {
  const rows: Joined[] = await db.query(
    `SELECT i.id, i.organisation_id, i.company_id, i.workspace_id, i.invoice_number, i.status, i.source, i.document, i.delivery, i.version,
       c.credit_notes, c.voided, c.version AS credits_version
     FROM invoices i LEFT JOIN invoice_credit_notes c ON c.invoice_id = i.id
     WHERE i.id = $1 AND i.organisation_id = $2 AND ($3::uuid IS NULL OR i.company_id = $3::uuid)`,
    [invoiceId, scope.organisationId, scope.companyId],
  );
  const row = rows[0];
  if (!row) return null;
  const invoice: KnownInvoice = {
    status: row.voided ? 'voided' : row.status, authoring_status: row.status, source: row.source, invoice_id: row.id, organisation_id: row.organisation_id,
    company_id: row.company_id, workspace_id: row.workspace_id, invoice_number: row.invoice_number, content: row.document.content,
    totals: row.document.totals, warnings: row.document.warnings, delivery: row.delivery ?? NO_DELIVERY, received_ubl: null, credit_notes: row.credit_notes ?? [],
    credited_invoice: null, approval: null,
  };
  return { allowance: invoiceAllowance(invoice), version: Math.max(row.version, row.credits_version ?? -1), read: readKey(row.version, row.credits_version) };
}

const readKey = (version: number, creditsVersion: number | null) => `${version}:${creditsVersion ?? -1}`;

/**
 * What an allowance read of the invoice would be computed from, as a key (the register row's and
 * the credit notes' versions), without reading the document; null when the scope cannot see it.
 */
export async function allowanceReadKey(db: DataSource, scope: { organisationId: string; companyId: string | null }, invoiceId: string): Promise<string | null> {
  const rows: { version: number; credits_version: number | null }[] = await db.query(
    `SELECT i.version, c.version AS credits_version FROM invoices i LEFT JOIN invoice_credit_notes c ON c.invoice_id = i.id
     WHERE i.id = $1 AND i.organisation_id = $2 AND ($3::uuid IS NULL OR i.company_id = $3::uuid)`,
    [invoiceId, scope.organisationId, scope.companyId],
  );
  const row = rows[0];
  return row ? readKey(row.version, row.credits_version) : null;
}

/** Whether an event of this invoice's stream was parked by the register or the credit notes (the answer would be missing or stale). */
export async function allowanceDegraded(db: DataSource, organisationId: string, invoiceId: string): Promise<boolean> {
  const rows: { degraded: boolean }[] = await db.query(
    `SELECT EXISTS (SELECT 1 FROM projection_failures WHERE name = ANY($1) AND stream_id = $2 AND (organisation_id IS NULL OR organisation_id = $3)) AS degraded`,
    [[CREDIT_NOTE_ALLOWANCE, INVOICE_REGISTER], invoiceStream(invoiceId), organisationId],
  );
  return rows[0]?.degraded === true;
}
