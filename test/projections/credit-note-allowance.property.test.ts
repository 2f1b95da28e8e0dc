// The allowance read model equals the decider, property-based: a generated invoice's stream (its
// create and a delivery start, so the register has its row) and the credit-note events the real
// decider accepts for a random command sequence, appended to a real event store and projected by
// the real projectors (invoice register, credit-note allowance). After every step, refused ones
// included, getAllowance answers exactly invoiceAllowance of the decider's state, at the stream's
// last revision. CREDIT_NOTE_PROPERTY_DB_RUNS sets the runs (default 15); PGlite by default,
// Postgres with DATABASE_URL.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import pg from 'pg';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { invoiceAllowance } from '../../commands/credit-notes/decider.ts';
import { commandOf, decideOn, invoiceLinesArb, scopeOf, stepsArb, AT } from '../../commands/credit-notes/stream-arbitraries.ts';
import type { InvoiceLine } from '../../commands/invoices/model.ts';
import { evolveInvoice, initialInvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../../commands/invoices/state.ts';
import { content } from '../../commands/invoices/test-fixtures.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { invoiceStream } from '../../events/invoices.ts';
import { creditNoteAllowance } from '../../projections/credit-note-allowance/projector.ts';
import { getAllowance } from '../../projections/credit-note-allowance/queries.ts';
import { invoiceRegister } from '../../projections/invoices/projector.ts';
import { createEventStore } from '../../src/platform/eventstore/index.ts';
import type { EventStore, NewEvent, Position } from '../../src/platform/eventstore/port.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { parkedEvents } from '../../src/platform/readmodel/failures.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import type { Projector } from '../../src/platform/readmodel/projector.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

const RUNS = Number(process.env.CREDIT_NOTE_PROPERTY_DB_RUNS ?? 15);
const PROJECTORS = [invoiceRegister, creditNoteAllowance];

const newEvents = (events: readonly InvoiceStreamEvent[]): NewEvent[] =>
  events.map((e) => ({
    id: randomUUID(), type: e.type, data: e.data as unknown as Record<string, unknown>,
    metadata: { causationId: randomUUID(), correlationId: randomUUID(), actor: { type: 'system' as const, id: 'credit-note-property' } },
  }));

/** An invoice of these lines, created and sent as far as `sent` says: queued, sent over Peppol, or delivered (all creditable). */
function startOf(lines: InvoiceLine[], sent: 1 | 2 | 3): InvoiceStreamEvent[] {
  const invoice_id = randomUUID();
  const c = { ...content, lines };
  const peppol_message_id = randomUUID();
  const receiver_participant_id = '9950:sk2020000004svctest';
  const delivery: InvoiceStreamEvent[] = [
    { type: 'InvoiceQueued', data: { invoice_id, queued_by: 'key-1', peppol_message_id, receiver_participant_id, queued_at: AT } },
    {
      type: 'PeppolMessageSent',
      data: { invoice_id, peppol_message_id, sender_participant_id: '9950:sk2020273893svctest', receiver_participant_id, document_type_id: 'invoice', sent_at: AT, as4: null },
    },
    { type: 'PeppolDeliveryConfirmed', data: { invoice_id, peppol_message_id, delivered_at: AT } },
  ];
  return [
    {
      type: 'InvoiceCreated',
      data: {
        invoice_id, organisation_id: randomUUID(), company_id: randomUUID(), workspace_id: randomUUID(), created_by: 'key-1', number_source: 'series',
        content: c, totals: computeTotals(c), warnings: [], created_at: AT,
      },
    },
    ...delivery.slice(0, sent),
  ];
}

describe('credit-note allowance read model equals the decider, property-based (fast-check, real event store)', function () {
  this.timeout(600_000);

  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let readModels: DataSource;
  let runner: ProjectionRunner;

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
    store = await createEventStore({ pool });
    readModels = await openReadModels(database.connectionString, PROJECTORS, [], 2);
    runner = new ProjectionRunner(store, readModels, PROJECTORS, pino({ level: 'silent' }));
  });

  after(async () => {
    await readModels?.destroy();
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  /**
   * Applies events up to `position` (what an append returned) for the projectors named. On Postgres
   * a read sees only events below the cluster's snapshot xmin, so one catchUp can stop short while
   * any transaction on the server is open: catch up again until the projector has passed it.
   */
  const project = async (position: Position, projectors: readonly Projector[]) => {
    for (const projector of projectors) {
      for (let tries = 0; ; tries++) {
        await runner.catchUp(projector);
        if (await runner.caughtUp(position, 1, [projector.name])) break;
        if (tries === 1000) throw new Error(`${projector.name} did not reach ${position}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  };

  it('after every step of a random command sequence, getAllowance is invoiceAllowance of the decider state, at the last revision', async () => {
    const seen = { runs: 0, steps: 0, appended: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(invoiceLinesArb, fc.constantFrom(1 as const, 2 as const, 3 as const), stepsArb(24), async (lines, sent, steps) => {
        seen.runs++;
        const start = startOf(lines, sent);
        const folded = start.reduce(evolveInvoice, initialInvoiceState);
        if (folded.status === 'none') throw new Error('no invoice');
        let state: KnownInvoice = folded;
        const stream = invoiceStream(state.invoice_id);
        const created = await store.append(stream, newEvents(start), 'no_stream');
        let version = created.nextRevision;
        // the allowance projector handles credit-note events only: the start is the register's
        await project(created.position, [invoiceRegister]);
        const expectRead = async (when: string) => {
          const read = await getAllowance(readModels, scopeOf(state), state.invoice_id);
          expect(read && { allowance: read.allowance, version: read.version }, when).to.deep.equal({ allowance: invoiceAllowance(state), version });
        };
        await expectRead('after the invoice was sent');
        for (const [i, step] of steps.entries()) {
          seen.steps++;
          const command = commandOf(step, state, i + 1);
          const outcome = decideOn(state, command);
          if ('refused' in outcome) seen.refused++;
          else if (outcome.events.length > 0) {
            seen.appended++;
            // at the revision the decision was made on, as the command handler appends
            const appended = await store.append(stream, newEvents(outcome.events), version);
            version = appended.nextRevision;
            state = outcome.state;
            await project(appended.position, PROJECTORS);
          }
          await expectRead(`after step ${i + 1}: ${command.type}${'refused' in outcome ? ` refused (${outcome.refused.code})` : ''}`);
        }
        expect((await store.readStream(stream)).at(-1)?.revision).to.equal(version);
      }),
      { numRuns: RUNS },
    );
    expect(await parkedEvents(readModels, 'projection_failures'), 'events the projectors could not apply').to.deep.equal([]);
    if (process.env.CREDIT_NOTE_PROPERTY_STATS) console.log(JSON.stringify(seen));
    expect(seen.appended).to.be.greaterThan(0);
  });
});
