import type { PaymentEvent, PaymentRecorded, PaymentReversed } from '../../events/payments.ts';
import { eventData, runsOfType, type Projector } from '../../src/readmodel/projector.ts';
import { Payments1764200000500 } from './migration.ts';
import { PAYMENTS } from './queries.ts';

const PAYMENT_EVENT_TYPES: readonly PaymentEvent['type'][] = ['PaymentRecorded', 'PaymentReversed'];

/**
 * Payments and refunds, a row each: recorded ones inserted (a repeat of one already there changes
 * nothing), reversals marking theirs. Each run of one event type is one statement.
 */
export const payments: Projector = {
  name: PAYMENTS,
  handles: PAYMENT_EVENT_TYPES,
  tables: ['payments'],
  migrations: [Payments1764200000500],

  async apply(events, tx) {
    for (const run of runsOfType(events)) {
      if (run.type === 'PaymentRecorded') {
        const rows = run.events.map((e) => ({ ...eventData<PaymentRecorded>(e), revision: e.revision }));
        await tx.query(
          `INSERT INTO payments (id, document_id, organisation_id, company_id, kind, amount, currency_code, paid_on, method, reference, recorded_by, recorded_at, revision, status)
           SELECT r.payment_id, r.document_id, r.organisation_id, r.company_id, r.kind, r.amount, r.currency_code, r.paid_on, r.method, r.reference, r.recorded_by,
             r.recorded_at, r.revision, 'recorded'
           FROM jsonb_to_recordset($1::jsonb) AS r(payment_id uuid, document_id uuid, organisation_id uuid, company_id uuid, kind text, amount numeric,
             currency_code text, paid_on date, method text, reference text, recorded_by text, recorded_at timestamptz, revision int)
           ON CONFLICT (id) DO NOTHING`,
          [JSON.stringify(rows)],
        );
      } else if (run.type === 'PaymentReversed') {
        const rows = run.events.map((e) => eventData<PaymentReversed>(e));
        await tx.query(
          `UPDATE payments p SET status = 'reversed', reversed_by = r.reversed_by, reversed_at = r.reversed_at, reversal_reason = r.reason
           FROM jsonb_to_recordset($1::jsonb) AS r(payment_id uuid, reason text, reversed_by text, reversed_at timestamptz)
           WHERE p.id = r.payment_id AND p.status = 'recorded'`,
          [JSON.stringify(rows)],
        );
      }
    }
  },
};
