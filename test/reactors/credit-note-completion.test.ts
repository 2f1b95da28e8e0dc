import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import pg from 'pg';
import { creditNoteDecider, invoiceAllowance } from '../../commands/credit-notes/decider.ts';
import { createEventStore, type EventStore } from '../../src/platform/eventstore/index.ts';
import { readAndFold } from '../../src/platform/handling/read-and-fold.ts';
import { creditNoteCompletionReactor } from '../../src/modules/credit-notes/reactors/completion.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

const fixture = (type: string) => JSON.parse(readFileSync(new URL(`../fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { data: Record<string, unknown> };
const clock = { now: () => new Date() };
const ids = { next: () => randomUUID() };

/**
 * EventStoreDB writes the reservation and the credit note's stream one after the other: a crash in
 * between is simulated here by writing the reservation alone.
 */
describe('a reservation whose credit note was never written is given back', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
    store = await createEventStore({ pool });
  });
  after(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  /** An invoice delivered by hand, and a counted reservation on it; the credit note's own stream only when `written`. */
  async function reserved(written: boolean) {
    const invoiceId = randomUUID();
    const creditNoteId = randomUUID();
    const event = (type: string, data: Record<string, unknown>) => ({ id: randomUUID(), type, data, metadata: {} });
    const created = fixture('InvoiceCreated').data;
    await store.append(`invoice-${invoiceId}`, [
      event('InvoiceCreated', { ...created, invoice_id: invoiceId }),
      event('InvoiceMarkedSent', { invoice_id: invoiceId, marked_by: 'k', delivered_at: '2026-11-24T10:00:00.000Z', note: null, at: '2026-11-24T10:00:00.000Z' }),
    ], 'no_stream');
    const { state } = await readAndFold(store, `invoice-${invoiceId}`, creditNoteDecider);
    if (state.status === 'none') throw new Error('no invoice');
    const rows = invoiceAllowance(state).buckets.map((b) => ({ kind: 'rest', vat_rate: b.vat_rate, vat_category_code: b.vat_category_code, vat_exemption_reason_code: b.vat_exemption_reason_code, source_line_id: null, quantity: null, base: b.left_base, vat: b.left_vat, gross: b.left_gross }));
    const reservation = event('CreditNoteReserved', {
      invoice_id: invoiceId, credit_note_id: creditNoteId, credit_note_number: 'DOB-2026-9', reason: 'full_reversal', rows, counted: true, reserved_by: 'k', reserved_at: new Date().toISOString(),
    });
    await store.append(`invoice-${invoiceId}`, [reservation], 1);
    if (written) await store.append(`invoice-${creditNoteId}`, [event('CreditNoteCreated', { ...fixture('CreditNoteCreated').data, credit_note_id: creditNoteId })], 'no_stream');
    const recorded = (await store.readStream(`invoice-${invoiceId}`)).at(-1)!;
    return { invoiceId, recorded };
  }
  const leftOf = async (invoiceId: string) => {
    const { state } = await readAndFold(store, `invoice-${invoiceId}`, creditNoteDecider);
    return state.status === 'none' ? null : invoiceAllowance(state).left_gross;
  };

  it('after the grace period, the reservation alone is released as discarded and everything is left again', async () => {
    const { invoiceId, recorded } = await reserved(false);
    expect(await leftOf(invoiceId)).to.equal('0.00');
    await creditNoteCompletionReactor({ store, ids, clock, graceMs: 10 }).react(recorded, new AbortController().signal);
    const last = (await store.readStream(`invoice-${invoiceId}`)).at(-1)!;
    expect(last.type).to.equal('CreditNoteReleased');
    expect(last.data).to.include({ why: 'discarded' });
    expect(await leftOf(invoiceId)).to.not.equal('0.00');
    // a repeated reaction (at least once delivery) releases nothing more
    await creditNoteCompletionReactor({ store, ids, clock, graceMs: 0 }).react(recorded, new AbortController().signal);
    expect((await store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'CreditNoteReleased')).to.have.length(1);
  });

  it('a reservation whose credit note was written (always, on Postgres and PGlite) is left alone', async () => {
    const { invoiceId, recorded } = await reserved(true);
    await creditNoteCompletionReactor({ store, ids, clock, graceMs: 0 }).react(recorded, new AbortController().signal);
    expect((await store.readStream(`invoice-${invoiceId}`)).at(-1)!.type).to.equal('CreditNoteReserved');
    expect(await leftOf(invoiceId)).to.equal('0.00');
  });
});
