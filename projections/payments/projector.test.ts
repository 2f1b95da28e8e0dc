import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { inStream, projectorSpec } from '../../test/support/projector-given.ts';
import { freshDatabase, type TestDatabase } from '../../test/support/database.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { payments } from './projector.ts';
import { listPayments, paymentTotals } from './queries.ts';

const fixture = (type: string): DomainEvent<string, Record<string, unknown>> => {
  const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: Record<string, unknown> };
  return { type: f.type, data: f.data };
};
const recorded = fixture('PaymentRecorded');
const invoiceId = String(recorded.data.document_id);
const stream = `payments-${invoiceId}`;
const second: DomainEvent<string, Record<string, unknown>> = { ...recorded, data: { ...recorded.data, payment_id: '5b1f0e2a-8c3d-4e6f-9a7b-000000000002', amount: '20.00', reference: null } };
const creditNoteId = '7c9d4e63-3d2f-4a1b-8b8d-2e3f4a5b6c7d';
const refund: DomainEvent<string, Record<string, unknown>> = { ...recorded, data: { ...recorded.data, payment_id: '5b1f0e2a-8c3d-4e6f-9a7b-000000000003', document_id: creditNoteId, kind: 'refund', amount: '30.00' } };
const ROWS = 'SELECT id::text, kind, amount::text, status, revision, reversal_reason, reversed_at IS NOT NULL AS reversed FROM payments ORDER BY document_id, revision';

describe('payments projector', function () {
  this.timeout(120_000); // a fresh database per scenario
  const given = projectorSpec(payments);

  it('a row per payment, at its revision in the document\'s stream; a reversal marks its row', async () => {
    await given(inStream(stream, recorded, second, fixture('PaymentReversed'))).then(ROWS, [
      { id: recorded.data.payment_id, kind: 'payment', amount: '147.60', status: 'reversed', revision: 0, reversal_reason: 'the bank returned the transfer', reversed: true },
      { id: second.data.payment_id, kind: 'payment', amount: '20.00', status: 'recorded', revision: 1, reversal_reason: null, reversed: false },
    ]);
  });

  describe('queries', () => {
    let database: TestDatabase;
    let db: DataSource;
    before(async () => {
      database = await freshDatabase();
      db = await openReadModels(database.connectionString, [payments], [], 2);
      const events = [recorded, second, fixture('PaymentReversed'), refund].map((e, i) => ({
        id: `00000000-0000-4000-8000-00000000000${i}`, streamId: `payments-${String(e.data.document_id)}`, revision: e === refund ? 0 : i, position: String(i + 1).padStart(8, '0'),
        type: e.type, data: e.data, metadata: {}, recordedAt: new Date(),
      }));
      await db.transaction((tx) => payments.apply(events, tx));
    });
    after(async () => {
      await db?.destroy();
      await database?.drop();
    });

    it('paymentTotals sums what was not reversed, per document asked, 0.00 for one without any', async () => {
      const none = '00000000-0000-4000-8000-0000000000ff';
      const totals = await paymentTotals(db, [invoiceId, creditNoteId, none]);
      expect(Object.fromEntries(totals)).to.deep.equal({
        [invoiceId]: { paid: '20.00', refunded: '0.00' }, [creditNoteId]: { paid: '0.00', refunded: '30.00' }, [none]: { paid: '0.00', refunded: '0.00' },
      });
      expect((await paymentTotals(db, [])).size).to.equal(0);
    });

    it('the list of a document is newest first, reversed ones included, in pages', async () => {
      const all = await listPayments(db, invoiceId, { page: 1, pageSize: 20 });
      expect(all.total).to.equal(2);
      expect(all.items.map((p) => [p.payment_id, p.status])).to.deep.equal([[second.data.payment_id, 'recorded'], [recorded.data.payment_id, 'reversed']]);
      expect(all.items[1]).to.include({ amount: '147.60', paid_on: '2026-11-25', recorded_at: '2026-11-25T08:15:00.000Z', reversed_at: '2026-11-26T09:00:00.000Z' });
      const secondPage = await listPayments(db, invoiceId, { page: 2, pageSize: 1 });
      expect(secondPage.items.map((p) => p.payment_id)).to.deep.equal([recorded.data.payment_id]);
    });
  });
});
