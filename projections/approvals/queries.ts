import type { DataSource } from 'typeorm';
import type { ApprovalRecord } from '../../commands/approvals/approval.ts';
import { invoiceStream } from '../../events/invoices.ts';
import { INVOICE_REGISTER } from '../invoices/queries.ts';

/** The projector's name, under which projection_failures records what it parked. */
export const INVOICE_APPROVALS = 'invoice-approvals';

/**
 * The approval state of an invoice of the organisation (and of the company, when one is named), or
 * null when there is no such invoice for the caller: its latest approval record (null: approval
 * was never asked for) and the invoice stream's version (what If-Match takes).
 */
export async function getApprovalState(
  db: DataSource,
  scope: { organisationId: string; companyId: string | null },
  invoiceId: string,
): Promise<{ approval: ApprovalRecord | null; version: number } | null> {
  const rows: { version: number; approval: (Omit<ApprovalRecord, 'voided'> & Partial<Pick<ApprovalRecord, 'voided'>>) | null; approval_version: number | null }[] = await db.query(
    `SELECT i.version, a.approval, a.version AS approval_version
     FROM invoices i LEFT JOIN invoice_approvals a ON a.invoice_id = i.id
     WHERE i.id = $1 AND i.organisation_id = $2 AND ($3::uuid IS NULL OR i.company_id = $3::uuid)`,
    [invoiceId, scope.organisationId, scope.companyId],
  );
  const row = rows[0];
  if (!row) return null;
  // records stored before voids existed have no `voided`
  const approval = row.approval && { ...row.approval, voided: row.approval.voided ?? null };
  return { approval, version: Math.max(row.version, row.approval_version ?? -1) };
}

/** Whether an event of this invoice's stream was parked by the register or the approvals (the answer would be missing or stale). */
export async function approvalsDegraded(db: DataSource, organisationId: string, invoiceId: string): Promise<boolean> {
  const rows: { degraded: boolean }[] = await db.query(
    `SELECT EXISTS (SELECT 1 FROM projection_failures WHERE name = ANY($1) AND stream_id = $2 AND (organisation_id IS NULL OR organisation_id = $3)) AS degraded`,
    [[INVOICE_APPROVALS, INVOICE_REGISTER], invoiceStream(invoiceId), organisationId],
  );
  return rows[0]?.degraded === true;
}
