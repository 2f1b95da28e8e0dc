import { Decimal } from 'decimal.js';
import type { DataSource } from 'typeorm';
import type { Payment } from '../../commands/payments/decider.ts';
import type { RequestScope } from '../../commands/shared/access.ts';

/** The projector's name: what read-your-writes waits for. */
export const PAYMENTS = 'payments';

const COLUMNS = `id AS payment_id, document_id, organisation_id, company_id, kind, amount::text AS amount, currency_code, paid_on::text AS paid_on, method,
  reference, recorded_by, recorded_at, status, reversed_by, reversed_at, reversal_reason`;

type PaymentRow = Omit<Payment, 'recorded_at' | 'reversed_at'> & { recorded_at: Date; reversed_at: Date | null };

const payment = (row: PaymentRow): Payment => ({
  ...row, recorded_at: new Date(row.recorded_at).toISOString(), reversed_at: row.reversed_at === null ? null : new Date(row.reversed_at).toISOString(),
});

/** A payment of the caller's organisation (and company, when the scope names one), or null. */
export async function getPayment(db: DataSource, scope: RequestScope, paymentId: string): Promise<Payment | null> {
  const rows: PaymentRow[] = await db.query(
    `SELECT ${COLUMNS} FROM payments WHERE id = $1 AND organisation_id = $2 AND ($3::uuid IS NULL OR company_id = $3::uuid)`,
    [paymentId, scope.organisationId, scope.companyId],
  );
  return rows[0] ? payment(rows[0]) : null;
}

/** The payments (or refunds) of one document, newest first, reversed ones included. */
export async function listPayments(db: DataSource, documentId: string, page: { page: number; pageSize: number }): Promise<{ items: Payment[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.query(`SELECT ${COLUMNS} FROM payments WHERE document_id = $1 ORDER BY revision DESC LIMIT $2 OFFSET $3`, [documentId, page.pageSize, (page.page - 1) * page.pageSize]) as Promise<PaymentRow[]>,
    db.query('SELECT count(*)::int AS n FROM payments WHERE document_id = $1', [documentId]) as Promise<{ n: number }[]>,
  ]);
  return { items: rows.map(payment), total: count[0]?.n ?? 0 };
}

export interface PaymentTotals {
  /** payments recorded on the document (an invoice), not reversed */
  paid: string;
  /** refunds recorded on the document (a credit note), not reversed */
  refunded: string;
}

/**
 * Per document asked: the sums of its payments and refunds that were not reversed, "0.00" for a
 * document without any. What settlement.ts takes: an invoice's `paid`, and each of its credit
 * notes' `refunded`.
 */
export async function paymentTotals(db: DataSource, documentIds: readonly string[]): Promise<Map<string, PaymentTotals>> {
  const totals = new Map<string, PaymentTotals>(documentIds.map((id) => [id, { paid: '0.00', refunded: '0.00' }]));
  if (documentIds.length === 0) return totals;
  const rows: { document_id: string; paid: string; refunded: string }[] = await db.query(
    `SELECT document_id, (COALESCE(SUM(amount) FILTER (WHERE kind = 'payment'), 0))::text AS paid, (COALESCE(SUM(amount) FILTER (WHERE kind = 'refund'), 0))::text AS refunded
     FROM payments WHERE document_id = ANY($1::uuid[]) AND status = 'recorded' GROUP BY document_id`,
    [[...documentIds]],
  );
  for (const row of rows) totals.set(row.document_id, { paid: new Decimal(row.paid).toFixed(2), refunded: new Decimal(row.refunded).toFixed(2) });
  return totals;
}

/**
 * Whether the document (an invoice or credit note in the invoice register) is one the scope sees:
 * its organisation's, and the company's when the scope names one (commands/shared/access.ts).
 */
export async function documentVisible(db: DataSource, scope: RequestScope, documentId: string): Promise<boolean> {
  const rows: unknown[] = await db.query(
    'SELECT 1 FROM invoices WHERE id = $1 AND organisation_id = $2 AND ($3::uuid IS NULL OR company_id = $3::uuid)',
    [documentId, scope.organisationId, scope.companyId],
  );
  return rows.length > 0;
}
