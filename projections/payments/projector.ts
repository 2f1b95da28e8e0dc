import type { PaymentEvent, PaymentReversed } from '../../events/payments.ts';
import type { EntityManager } from 'typeorm';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { foldByKey, insertPhases } from '../shared/phases.ts';
import { Payments1764200000500 } from './migration.ts';
import { PAYMENTS } from './queries.ts';

const PAYMENT_EVENT_TYPES: readonly PaymentEvent['type'][] = ['PaymentRecorded', 'PaymentReversed'];

/** Reversals of one phase (insertPhases) in one statement: a payment's first one applies (it moves the status off 'recorded', which every later one requires). */
async function reverse(events: readonly Recorded<PaymentReversed>[], tx: EntityManager): Promise<void> {
  if (events.length === 0) return;
  const rows = foldByKey<PaymentReversed['data'], Recorded<PaymentReversed>>(events, (e) => e.data.payment_id, (seen, e) => seen ?? e.data);
  // the ids also as an array: the planner then reads the rows by key, never scans the table
  await tx.query(
    `UPDATE payments p SET status = 'reversed', reversed_by = r.reversed_by, reversed_at = r.reversed_at, reversal_reason = r.reason
     FROM jsonb_to_recordset($1::jsonb) AS r(payment_id uuid, reason text, reversed_by text, reversed_at timestamptz)
     WHERE p.id = r.payment_id AND p.status = 'recorded' AND p.id = ANY($2::uuid[])`,
    [JSON.stringify(rows), rows.map((r) => r.payment_id)],
  );
}

/**
 * Payments and refunds, a row each: recorded ones inserted (a repeat of one already there changes
 * nothing), reversals marking theirs. A batch is at most three statements (insertPhases).
 */
export const payments = defineProjector<PaymentEvent>({
  name: PAYMENTS,
  handles: PAYMENT_EVENT_TYPES,
  tables: ['payments'],
  migrations: [Payments1764200000500],

  async apply(events, tx) {
    const { early, inserts, late } = insertPhases(events, (e) => e.data.payment_id, (e) => e.type === 'PaymentRecorded');
    await reverse(early, tx);
    if (inserts.length > 0) {
      const rows = inserts.map((e) => ({ ...e.data, revision: e.revision }));
      await tx.query(
        `INSERT INTO payments (id, document_id, organisation_id, company_id, kind, amount, currency_code, paid_on, method, reference, recorded_by, recorded_at, revision, status)
         SELECT r.payment_id, r.document_id, r.organisation_id, r.company_id, r.kind, r.amount, r.currency_code, r.paid_on, r.method, r.reference, r.recorded_by,
           r.recorded_at, r.revision, 'recorded'
         FROM jsonb_to_recordset($1::jsonb) AS r(payment_id uuid, document_id uuid, organisation_id uuid, company_id uuid, kind text, amount numeric,
           currency_code text, paid_on date, method text, reference text, recorded_by text, recorded_at timestamptz, revision int)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(rows)],
      );
    }
    await reverse(late, tx);
  },
});
