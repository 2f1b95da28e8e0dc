import { expect } from 'chai';
import pg from 'pg';
import { invoiceNumberClaimDecider } from '../../commands/invoices/numbering.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { claimStream } from '../../events/claims.ts';
import { claimForNewHolder } from '../../src/platform/handling/unique-claim.ts';
import { createEventStore, type EventStore, type NewEvent } from '../../src/platform/eventstore/index.ts';
import { randomIds } from '../../src/platform/ports/ids.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

const holderStream = (id: string) => `holder-${id}`;
const created = (id: string): NewEvent => ({ id: crypto.randomUUID(), type: 'HolderCreated', data: { id }, metadata: {} });

describe('claiming a value for a new holder', function () {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let now = new Date('2026-11-23T10:00:00Z');
  let appends: string[] = [];
  const deps = () => ({
    ids: randomIds,
    clock: { now: () => now },
    // counts the appends the claim makes
    store: Object.assign(Object.create(store) as EventStore, {
      append: (...args: Parameters<EventStore['append']>) => (appends.push('append'), store.append(...args)),
      appendToNewStreams: (...args: Parameters<EventStore['appendToNewStreams']>) => (appends.push('new streams'), store.appendToNewStreams(...args)),
    }),
  });
  const claim = (value: string, holderId: string) => claimForNewHolder(
    deps(), { decider: invoiceNumberClaimDecider, scope: 'invoice_number-test', value, holderId, holderStream },
    { streamId: holderStream(holderId), events: [created(holderId)] }, {},
  );
  const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    store = await createEventStore({ pool });
  });
  beforeEach(() => {
    appends = [];
    now = new Date('2026-11-23T10:00:00Z');
  });
  after(async () => {
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('writes a new value’s claim and its holder in one append', async () => {
    const appended = await claim('FA-1', 'h1');
    expect(appends).to.deep.equal(['new streams']);
    expect((await store.readStream(claimStream('invoice_number-test', 'FA-1'))).map((e) => e.data.holder_id)).to.deep.equal(['h1']);
    expect(await store.readStream(holderStream('h1'))).to.have.length(1);
    expect(appended.nextRevision).to.equal(0);
  });

  it('refuses a value whose holder exists, and writes no holder', async () => {
    await claim('FA-2', 'h2');
    const error = await refusal(claim('FA-2', 'h3'));
    expect(error).to.be.instanceOf(DomainError).with.property('code', 'invoice_number_conflict');
    expect(await store.readStream(holderStream('h3'))).to.deep.equal([]);
  });

  it('takes over a claim whose holder never got written once it is older than a minute (a crash between appends on EventStoreDB); a younger one blocks', async () => {
    await store.append(claimStream('invoice_number-test', 'FA-3'), [{
      id: crypto.randomUUID(), type: 'ValueClaimed', metadata: {},
      data: { scope: 'invoice_number-test', value: 'FA-3', holder_id: 'ghost', claimed_at: now.toISOString() },
    }], 'no_stream');
    now = new Date(now.getTime() + 30_000);
    expect(await refusal(claim('FA-3', 'h4'))).to.be.instanceOf(DomainError).with.property('code', 'invoice_number_conflict');
    now = new Date(now.getTime() + 60_000);
    await claim('FA-3', 'h5');
    expect((await store.readStream(claimStream('invoice_number-test', 'FA-3'))).map((e) => e.data.holder_id)).to.deep.equal(['ghost', 'h5']);
    expect(await store.readStream(holderStream('h5'))).to.have.length(1);
    expect(await store.readStream(holderStream('h4'))).to.deep.equal([]);
  });
});
