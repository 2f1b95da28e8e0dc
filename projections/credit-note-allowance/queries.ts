import type { DataSource } from 'typeorm';
import type { Allowance } from '../../commands/credit-notes/model.ts';
import { invoiceStream } from '../../events/invoices.ts';

/** The projector's name, under which projection_failures records what it parked. */
export const CREDIT_NOTE_ALLOWANCE = 'credit-note-allowance';

/** The allowance of an invoice of the organisation (and of the company, when one is named), or null. */
export async function getAllowance(db: DataSource, scope: { organisationId: string; companyId: string | null }, invoiceId: string): Promise<{ allowance: Allowance; version: number } | null> {
  const rows: { allowance: Allowance; version: number }[] = await db.query(
    `SELECT allowance, version FROM credit_note_allowances
     WHERE invoice_id = $1 AND organisation_id = $2 AND ($3::uuid IS NULL OR company_id = $3::uuid)`,
    [invoiceId, scope.organisationId, scope.companyId],
  );
  return rows[0] ?? null;
}

/** Whether an event of this invoice's stream was parked by the allowance projector (the row is missing or stale). */
export async function allowanceDegraded(db: DataSource, organisationId: string, invoiceId: string): Promise<boolean> {
  const rows: { degraded: boolean }[] = await db.query(
    `SELECT EXISTS (SELECT 1 FROM projection_failures WHERE name = $1 AND stream_id = $2 AND (organisation_id IS NULL OR organisation_id = $3)) AS degraded`,
    [CREDIT_NOTE_ALLOWANCE, invoiceStream(invoiceId), organisationId],
  );
  return rows[0]?.degraded === true;
}
