import { Decimal } from 'decimal.js';
import type { DataSource } from 'typeorm';
import type { CreditNoteEntry } from '../../commands/invoices/state.ts';
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

interface PaymentTotals {
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

/** What an invoice's settlement is computed from: its payable amount, its credit notes (oldest first), and the payment totals of it and of each of them. */
export interface InvoiceSettlementFacts {
  payable: string;
  credit_notes: CreditNoteEntry[];
  totals: Map<string, PaymentTotals>;
}

/**
 * The facts of an invoice's settlement in one statement (a read per settled answer is one round
 * trip, not two): the register's payable amount, the credit-note read model's list, and the
 * payments and refunds on the invoice and on every credit note in that list. Null when the
 * register lacks the invoice. The same sums as paymentTotals.
 */
export async function invoiceSettlementFacts(db: DataSource, invoiceId: string): Promise<InvoiceSettlementFacts | null> {
  const rows: SettlementFactsRow[] = await db.query(settlementFactsSql('$1'), [invoiceId]);
  const row = rows[0];
  return row ? settlementFactsOf(invoiceId, row) : null;
}

/** One row of settlementFactsSql. */
export interface SettlementFactsRow {
  payable: string;
  credit_notes: CreditNoteEntry[] | null;
  payments: { document_id: string; paid: string; refunded: string }[] | null;
}

/** invoiceSettlementFacts' statement for the invoice `invoiceId` (an SQL expression): no row when the register lacks it. */
export const settlementFactsSql = (invoiceId: string) =>
  `SELECT i.document->'totals'->>'amount_due' AS payable, c.credit_notes,
       (SELECT json_agg(json_build_object('document_id', t.document_id, 'paid', t.paid, 'refunded', t.refunded)) FROM (
          SELECT p.document_id, (COALESCE(SUM(p.amount) FILTER (WHERE p.kind = 'payment'), 0))::text AS paid,
            (COALESCE(SUM(p.amount) FILTER (WHERE p.kind = 'refund'), 0))::text AS refunded
          FROM payments p
          WHERE p.document_id = ANY(i.id || ARRAY(SELECT (e->>'credit_note_id')::uuid FROM jsonb_array_elements(c.credit_notes) AS e))
            AND p.status = 'recorded'
          GROUP BY p.document_id) t) AS payments
     FROM invoices i LEFT JOIN invoice_credit_notes c ON c.invoice_id = i.id WHERE i.id = ${invoiceId}`;

/** The facts of a row of settlementFactsSql. */
export function settlementFactsOf(invoiceId: string, row: SettlementFactsRow): InvoiceSettlementFacts {
  const credit_notes = row.credit_notes ?? [];
  const totals = new Map<string, PaymentTotals>([invoiceId, ...credit_notes.map((c) => c.credit_note_id)].map((id) => [id, { paid: '0.00', refunded: '0.00' }]));
  for (const p of row.payments ?? []) totals.set(p.document_id, { paid: new Decimal(p.paid).toFixed(2), refunded: new Decimal(p.refunded).toFixed(2) });
  return { payable: row.payable, credit_notes, totals };
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
