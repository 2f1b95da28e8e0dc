// The allowance read model writes each batch in one statement (changes merged into the stored
// entries in SQL): random credit-note event sequences over a few invoices (reservations, counts
// with new rows, issues, releases, voids, events naming credit notes of earlier batches, of the
// same batch, or none), cut into random batches written as the runner writes them, leave exactly
// the rows of the decider's fold (evolveCreditNotes) of the whole sequence. PGlite by default,
// Postgres with DATABASE_URL.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { evolveCreditNotes, type CreditNoteEntry } from '../../commands/invoices/state.ts';
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import { creditNoteAllowance } from '../../projections/credit-note-allowance/projector.ts';
import type { RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { domainEvent } from '../../src/platform/handling/read-and-fold.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

const RUNS = Number(process.env.CREDIT_NOTE_ALLOWANCE_BATCH_RUNS ?? 40);
const FIXTURES = new URL('../fixtures/events/', import.meta.url).pathname;
const template = (type: string) => (JSON.parse(readFileSync(`${FIXTURES}${type}.v1.json`, 'utf8')) as { data: Record<string, unknown> }).data;
const TYPES = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'] as const;
const TEMPLATES = new Map(TYPES.map((t) => [t, template(t)]));

const INVOICES = Array.from({ length: 3 }, () => randomUUID());
const CREDIT_NOTES = Array.from({ length: 5 }, () => randomUUID());

interface Step { type: (typeof TYPES)[number]; invoice: number; creditNote: number; gross: number }

const stepArb: fc.Arbitrary<Step> = fc.record({
  type: fc.oneof({ weight: 3, arbitrary: fc.constant('CreditNoteReserved' as const) }, { weight: 5, arbitrary: fc.constantFrom(...TYPES) }),
  invoice: fc.nat(INVOICES.length - 1),
  creditNote: fc.nat(CREDIT_NOTES.length - 1),
  gross: fc.integer({ min: 1, max: 999 }),
});

function recorded(steps: readonly Step[]): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return steps.map(({ type, invoice, creditNote, gross }, i) => {
    const invoiceId = INVOICES[invoice]!;
    const base = TEMPLATES.get(type)!;
    // a count carries rows of its own, so which count is merged last shows
    const rows = type === 'CreditNoteCounted' || type === 'CreditNoteReserved' ? { rows: [{ ...(base.rows as object[] | undefined)?.[0], gross: `${gross}.00` }] } : {};
    const data = { ...base, ...rows, invoice_id: invoiceId, credit_note_id: CREDIT_NOTES[creditNote]!, credit_note_number: `DOB-2026-${String(gross).padStart(6, '0')}` };
    const revision = revisions.get(invoiceId) ?? 0;
    revisions.set(invoiceId, revision + 1);
    return {
      id: randomUUID(), streamId: `invoice-${invoiceId}`, revision, position: String(i + 1).padStart(8, '0'), type, data,
      metadata: {}, recordedAt: new Date(Date.UTC(2026, 10, 24, 3, 0, 0, 0) + i * 1000),
    };
  });
}

/** What the decider's fold makes of the whole sequence, row by row (as JSON stores it). */
function folded(events: readonly RecordedEvent[]) {
  const rows = new Map<string, { invoice_id: string; version: number; voided: boolean; credit_notes: CreditNoteEntry[] }>();
  for (const recordedEvent of events) {
    const event = domainEvent<CreditNoteEvent>(recordedEvent);
    const row = rows.get(event.data.invoice_id) ?? { invoice_id: event.data.invoice_id, version: 0, voided: false, credit_notes: [] };
    rows.set(row.invoice_id, {
      invoice_id: row.invoice_id, version: recordedEvent.revision, voided: row.voided || event.type === 'InvoiceVoided',
      credit_notes: evolveCreditNotes(row.credit_notes, event),
    });
  }
  return JSON.parse(JSON.stringify([...rows.values()].sort((a, b) => a.invoice_id.localeCompare(b.invoice_id)))) as unknown;
}

describe('credit-note allowance: batches written in one statement make the rows of the decider\'s fold', function () {
  this.timeout(600_000);
  let database: TestDatabase;
  let db: DataSource;

  before(async () => {
    database = await freshDatabase();
    db = await openReadModels(database.connectionString, [creditNoteAllowance], [], 2);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /** As the runner writes batches: each one statement, inside the checkpoint's CTE. */
  const project = async (events: readonly RecordedEvent[], sizes: readonly number[]) => {
    await db.query('TRUNCATE invoice_credit_notes');
    for (let at = 0, k = 0; at < events.length; k++) {
      const batch = events.slice(at, at + (sizes[k % sizes.length] ?? 1));
      at += batch.length;
      const rows = creditNoteAllowance.newRows?.(batch);
      if (!rows) throw new Error('the allowance writes every batch in one statement');
      await db.query(`WITH moved AS (SELECT 1), inserted AS (${rows.insert('(SELECT $1::jsonb FROM moved)')}) SELECT count(*)::int AS moved FROM moved`, [JSON.stringify(rows.rows)]);
    }
    return db.query('SELECT invoice_id, version, voided, credit_notes FROM invoice_credit_notes ORDER BY invoice_id::text');
  };

  it('random sequences in random batches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }), async (steps, sizes) => {
        const events = recorded(steps);
        expect(await project(events, sizes)).to.deep.equal(folded(events));
      }),
      { numRuns: RUNS },
    );
  });

  it('a reservation, its count and issue in separate batches, then a void with a second one in one batch', async () => {
    const steps: Step[] = [
      { type: 'CreditNoteReserved', invoice: 0, creditNote: 0, gross: 10 }, { type: 'CreditNoteCounted', invoice: 0, creditNote: 0, gross: 7 },
      { type: 'CreditNoteIssued', invoice: 0, creditNote: 0, gross: 1 }, { type: 'CreditNoteReserved', invoice: 0, creditNote: 1, gross: 3 },
      { type: 'CreditNoteCounted', invoice: 0, creditNote: 0, gross: 5 }, { type: 'InvoiceVoided', invoice: 0, creditNote: 1, gross: 1 },
    ];
    const events = recorded(steps);
    const rows = await project(events, [1, 1, 1, 3]);
    expect(rows).to.deep.equal(folded(events));
    expect(rows).to.have.length(1);
    expect((rows as { credit_notes: CreditNoteEntry[] }[])[0]!.credit_notes.map((e) => [e.rows[0]?.gross, e.counted, e.issued])).to.deep.equal([['5.00', true, true], ['3.00', false, false]]);
  });
});
