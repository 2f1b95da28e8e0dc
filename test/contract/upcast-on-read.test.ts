import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { customerDecider } from '../../commands/customers/decider.ts';
import { customerStream, type CustomerArchived, type CustomerEvent, type CustomerRegistered } from '../../events/customers.ts';
import { customerDirectory } from '../../projections/customer-directory/projector.ts';
import { EVENT_CONTRACTS, createEventStore, type EventContracts, type EventStore, type NewEvent } from '../../src/platform/eventstore/index.ts';
import { readAndFold } from '../../src/platform/handling/read-and-fold.ts';
import { defineReactor } from '../../src/platform/reactors/reactor.ts';
import { ReactorRunner } from '../../src/platform/reactors/runner.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { parkedEvents } from '../../src/platform/readmodel/failures.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

/*
 * A v2 of a real type, as it would come, with a rename (the sent events' v2 only adds a field):
 * this suite gives CustomerArchived a version 2 of its own. Its shape in events/customers.ts is version 2
 * here; version 1, as a release before would have stored it, named the archival time `at`. The
 * store is made with these contracts, and an event stored at version 1 reaches the decider, the
 * real customer-directory projector and a reactor, each through its real read path (readAndFold,
 * the projection runner, the reactor runner), in the shape version 2 declares.
 */
type ArchivedV1 = { customer_id: string; at: string };

const CONTRACTS: EventContracts = {
  versions: { ...EVENT_CONTRACTS.versions, CustomerArchived: 2 },
  upcasters: { ...EVENT_CONTRACTS.upcasters, CustomerArchived: [({ at, ...rest }) => ({ ...rest, archived_at: at })] },
};

const log = pino({ level: 'silent' });
const ARCHIVED_AT = '2025-03-01T10:00:00.000Z';

function stored(type: string, data: object): NewEvent {
  // metadata as every event of a type at version 1 has it: no version
  return { id: randomUUID(), type, data: { ...data }, metadata: { causationId: randomUUID(), correlationId: randomUUID(), actor: { type: 'system', id: 'upcast-test' } } };
}

describe('an event stored at an old version reaches every reader at the current one', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let readModels: DataSource;
  const customerId = randomUUID();
  const organisationId = randomUUID();

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    // the release before wrote them: CustomerArchived was at version 1 then
    const older = await createEventStore({ pool });
    await older.append(customerStream(customerId), [stored('CustomerRegistered', registered()), stored('CustomerArchived', archivedV1())], 'no_stream');
    await older.close();
    store = await createEventStore({ pool, contracts: CONTRACTS });
    readModels = await openReadModels(database.connectionString, [customerDirectory], [], 4);
  });
  after(async () => {
    await readModels?.destroy();
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  const registered = (): CustomerRegistered['data'] => ({
    customer_id: customerId, organisation_id: organisationId, company_id: null, registered_at: '2025-01-01T09:00:00.000Z',
    name: 'Odberateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893', email: null, phone: null,
    street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK', peppol_id: null, note: null,
  });
  const archivedV1 = (): ArchivedV1 => ({ customer_id: customerId, at: ARCHIVED_AT });

  const current: CustomerArchived['data'] = { customer_id: customerId, archived_at: ARCHIVED_AT };

  it('is stored as version 1 wrote it', async () => {
    const { rows } = await pool.query<{ data: unknown; metadata: Record<string, unknown> }>("SELECT data, metadata FROM events WHERE type = 'CustomerArchived'");
    expect(rows.map((r) => r.data)).to.deep.equal([{ customer_id: customerId, at: ARCHIVED_AT }]);
    expect(rows[0]?.metadata).not.to.have.property('version');
  });

  it('the decider folds it at version 2 (readAndFold, the command path)', async () => {
    const folded: CustomerEvent[] = [];
    const watching = { ...customerDecider, evolve: (state: Parameters<typeof customerDecider.evolve>[0], event: CustomerEvent) => (folded.push(event), customerDecider.evolve(state, event)) };
    const { state, revision } = await readAndFold(store, customerStream(customerId), watching);
    expect(revision).to.equal(1);
    expect(state.status).to.equal('archived');
    expect(folded.map((e) => e.type)).to.deep.equal(['CustomerRegistered', 'CustomerArchived']);
    expect(folded[1]?.data).to.deep.equal(current);
  });

  it('the customer-directory projector applies it at version 2 (the projection runner, its $all read)', async () => {
    await new ProjectionRunner(store, readModels, [customerDirectory], log).catchUp(customerDirectory);
    expect(await parkedEvents(readModels, 'projection_failures')).to.deep.equal([]);
    const rows = await readModels.query('SELECT is_active, updated_at FROM customers WHERE id = $1', [customerId]);
    // updated_at comes from archived_at: v1's `at` reached the projector renamed
    expect(rows.map((r: { is_active: boolean; updated_at: Date }) => [r.is_active, new Date(r.updated_at).toISOString()])).to.deep.equal([[false, ARCHIVED_AT]]);
  });

  it('a reactor receives it at version 2 (the reactor runner, its $all read)', async () => {
    const received: CustomerArchived['data'][] = [];
    const watcher = defineReactor<CustomerArchived>({
      name: 'upcast-watcher',
      handles: ['CustomerArchived'],
      async react(event) {
        received.push(event.data);
      },
    });
    const runner = new ReactorRunner(store, readModels, [watcher], log, { pollMs: 20 });
    await runner.start();
    try {
      for (let i = 0; i < 200 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await runner.stop();
    }
    expect(received).to.deep.equal([current]);
  });
});
