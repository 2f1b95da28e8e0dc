// The invoice register written set-based (a batch's new rows and credit moves in one statement)
// makes exactly the rows the projector made before, event by event in runs (kept in
// invoice-register-before.ts): random mixed sequences over a few documents (creates, receipts,
// edits, validations, approvals, delivery steps, credit notes reserved/counted/issued/released,
// voids, credits naming a credit note of the same batch, repeated creates), cut into random
// batches, each written as the runner writes it (newRows in one statement, else apply in a
// transaction). PGlite by default, Postgres with DATABASE_URL.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { APPROVAL_EVENT_TYPES } from '../../events/approvals.ts';
import { DELIVERY_EVENT_TYPES } from '../../events/delivery.ts';
import { invoiceRegister } from '../../projections/invoices/projector.ts';
import type { RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import type { Projector } from '../../src/platform/readmodel/projector.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { invoiceRegisterBefore } from './invoice-register-before.ts';

const RUNS = Number(process.env.INVOICE_REGISTER_RUNS ?? 40);
const FIXTURES = new URL('../fixtures/events/', import.meta.url).pathname;
const template = (type: string) => (JSON.parse(readFileSync(`${FIXTURES}${type}.v1.json`, 'utf8')) as { data: Record<string, unknown> }).data;

const CREDITS = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'];
const CHANGES = ['InvoiceUpdated', 'InvoiceValidated', ...APPROVAL_EVENT_TYPES, ...DELIVERY_EVENT_TYPES];
const TEMPLATES = new Map(['InvoiceCreated', 'InvoiceReceived', 'CreditNoteCreated', ...CREDITS, ...CHANGES].map((t) => [t, template(t)]));

/** Documents the events are about: invoices, credit notes and received ones (a change or credit may name any of them). */
const INVOICES = Array.from({ length: 3 }, () => randomUUID());
const CREDIT_NOTES = Array.from({ length: 4 }, () => randomUUID());
const RECEIVED = Array.from({ length: 2 }, () => randomUUID());
const ANY = [...INVOICES, ...CREDIT_NOTES, ...RECEIVED];

interface Step { type: string; pick: number }

/** Credit notes and their credit moves come most often, as while following a busy service. */
const stepArb: fc.Arbitrary<Step> = fc.record({
  type: fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom('InvoiceCreated', 'InvoiceReceived') },
    { weight: 3, arbitrary: fc.constant('CreditNoteCreated') },
    { weight: 6, arbitrary: fc.constantFrom(...CREDITS) },
    { weight: 4, arbitrary: fc.constantFrom(...CHANGES) },
  ),
  pick: fc.nat(99),
});

/** The steps as stored events: each document's stream counts its own revisions; an hour apart each. */
function recorded(steps: readonly Step[]): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return steps.map(({ type, pick }, i) => {
    const id = type === 'InvoiceCreated' ? INVOICES[pick % INVOICES.length]!
      : type === 'CreditNoteCreated' ? CREDIT_NOTES[pick % CREDIT_NOTES.length]!
        : type === 'InvoiceReceived' ? RECEIVED[pick % RECEIVED.length]! : ANY[pick % ANY.length]!;
    const data = { ...TEMPLATES.get(type)!, ...(type === 'CreditNoteCreated' ? { credit_note_id: id } : { invoice_id: id }) };
    const revision = revisions.get(id) ?? 0;
    revisions.set(id, revision + 1);
    return {
      id: randomUUID(), streamId: `invoice-${id}`, revision, position: String(i + 1).padStart(8, '0'), type, data,
      metadata: {}, recordedAt: new Date(Date.UTC(2026, 10, 24, 3, 0, 0, 0) + i * 3_600_123),
    };
  });
}

/**
 * As the runner writes a batch: its new rows in one statement (inside the checkpoint's CTE) when
 * the projector offers them, else apply in a transaction; with `keep`, as a catch-up does: each
 * apply gets what the one before returned, unless a one-statement batch came between.
 */
async function project(db: DataSource, projector: Projector, events: readonly RecordedEvent[], sizes: readonly number[], keep = false): Promise<number> {
  let statements = 0;
  let kept: unknown;
  for (let at = 0, k = 0; at < events.length; k++) {
    const batch = events.slice(at, at + (sizes[k % sizes.length] ?? 1));
    at += batch.length;
    const rows = projector.newRows?.(batch) ?? null;
    if (rows) {
      statements++;
      kept = undefined;
      await db.query(`WITH moved AS (SELECT 1), inserted AS (${rows.insert('(SELECT $1::jsonb FROM moved)')}) SELECT count(*)::int AS moved FROM moved`, [JSON.stringify(rows.rows)]);
    } else {
      kept = await db.transaction(async (tx) => {
        const query = tx.query.bind(tx);
        tx.query = ((...args: Parameters<typeof query>) => { statements++; return query(...args); }) as typeof tx.query;
        return projector.apply(batch, tx, keep ? kept : undefined);
      });
    }
  }
  return statements;
}

describe('invoice register: batches written set-based make the same rows as event by event', function () {
  this.timeout(600_000);
  let database: TestDatabase;
  let db: DataSource;

  before(async () => {
    database = await freshDatabase();
    db = await openReadModels(database.connectionString, [invoiceRegister], [], 2);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /**
   * The rows each projector makes of `events` cut in batches of `sizes`, from an empty table: the
   * one before, the current one, and the current one keeping its rows between batches (a catch-up).
   */
  const rowsOf = async (events: readonly RecordedEvent[], sizes: readonly number[]) => {
    const made: { rows: unknown[]; statements: number }[] = [];
    for (const [projector, keep] of [[invoiceRegisterBefore, false], [invoiceRegister, false], [invoiceRegister, true]] as const) {
      await db.query('TRUNCATE invoices');
      const statements = await project(db, projector, events, sizes, keep);
      made.push({ rows: await db.query('SELECT * FROM invoices ORDER BY id'), statements });
    }
    return made as [typeof made[0], typeof made[0], typeof made[0]];
  };

  it('random mixed sequences in random batches', async () => {
    const seen = { statementsBefore: 0, statementsAfter: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }), async (steps, sizes) => {
        const events = recorded(steps);
        const [before, after, keeping] = await rowsOf(events, sizes);
        expect(after.rows).to.deep.equal(before.rows);
        expect(keeping.rows, 'keeping its rows between batches').to.deep.equal(before.rows);
        seen.statementsBefore += before.statements;
        seen.statementsAfter += after.statements;
      }),
      { numRuns: RUNS },
    );
    expect(seen.statementsAfter).to.be.lessThan(seen.statementsBefore);
  });

  it('a rebuild-sized batch, written in several statements of new and of changed rows, makes the same rows', async () => {
    // 300 invoices stored by a first batch; then 300 more created, and all 600 edited or validated, in one batch
    const ids = Array.from({ length: 600 }, () => randomUUID());
    const revisions = new Map<string, number>();
    const event = (type: string, id: string, i: number): RecordedEvent => {
      const revision = revisions.get(id) ?? 0;
      revisions.set(id, revision + 1);
      return {
        id: randomUUID(), streamId: `invoice-${id}`, revision, position: String(i + 1).padStart(8, '0'), type,
        data: { ...TEMPLATES.get(type)!, invoice_id: id }, metadata: {}, recordedAt: new Date(Date.UTC(2026, 10, 24) + i * 60_000),
      };
    };
    const types = [...ids.map(() => 'InvoiceCreated'), ...ids.map((_, i) => (i % 2 === 0 ? 'InvoiceUpdated' : 'InvoiceValidated'))];
    const events = types.map((type, i) => event(type, ids[i % ids.length]!, i));
    const [before, now, keeping] = await rowsOf(events, [300, events.length - 300]);
    expect(before.rows).to.have.length(600);
    expect(now.rows).to.deep.equal(before.rows);
    expect(keeping.rows).to.deep.equal(before.rows);
  });

  it('a batch of credit notes delivered by hand, as a busy service writes it, is one statement', async () => {
    // each: the invoice's reservation and issue, then the credit note's create and its hand delivery (one append)
    const steps = INVOICES.flatMap((_, i): Step[] => [
      { type: 'CreditNoteReserved', pick: i }, { type: 'CreditNoteIssued', pick: i },
      { type: 'CreditNoteCreated', pick: i }, { type: 'InvoiceMarkedSent', pick: INVOICES.length + i },
    ]);
    const events = recorded([...INVOICES.map((_, i): Step => ({ type: 'InvoiceCreated', pick: i })), ...steps]);
    const created = events.slice(0, INVOICES.length);
    const credits = events.slice(INVOICES.length);
    // three new credit notes and three credited invoices
    expect(invoiceRegister.newRows?.(credits)?.rows).to.have.length(2 * INVOICES.length);
    const [old, now] = await rowsOf(events, [created.length, credits.length]);
    expect(now.rows).to.deep.equal(old.rows);
    // each invoice moved to its issue (revision 2), each credit note delivered by hand (revision 1)
    const versions = Object.fromEntries((now.rows as { id: string; version: number }[]).map((r) => [r.id, r.version]));
    expect(versions).to.deep.equal(Object.fromEntries([...INVOICES.map((id) => [id, 2]), ...CREDIT_NOTES.slice(0, INVOICES.length).map((id) => [id, 1])]));
    expect(now.statements).to.equal(2);
    expect(old.statements).to.equal(1 + 2 * INVOICES.length);
  });
});
