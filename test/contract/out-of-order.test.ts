import { expect } from 'chai';
import pg from 'pg';
import type { Subscription } from 'rxjs';
import { START, type EventStore, type RecordedEvent } from '../../src/platform/eventstore/index.ts';
import { appendStatement, createPostgresEventStore } from '../../src/platform/eventstore/postgres/index.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { endPool, eventually, newEvent, sleep, streamId } from './support.ts';

/*
 * The race: append A takes global_position 1 and stays uncommitted; append B takes 2 and commits.
 * A poller that reads "global_position > checkpoint" sees 2, moves its checkpoint to 2, and when A
 * finally commits, position 1 is behind the checkpoint forever. The adapter must deliver both.
 */
describe('subscribers never skip an event that commits out of order', () => {
  if (!process.env.DATABASE_URL) {
    it(
      'not run on PGlite — it runs one transaction at a time, so a later position can never commit before ' +
        'an earlier one; set DATABASE_URL to run this proof on Postgres',
    );
    return;
  }

  let db: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let holder: pg.Client;

  before(async () => {
    db = await freshDatabase();
    pool = new pg.Pool({ connectionString: db.connectionString, max: 4 });
    store = await createPostgresEventStore(pool, { pollIntervalMs: 20 });
    holder = new pg.Client({ connectionString: db.connectionString });
    await holder.connect();
  });
  after(async () => {
    await holder.query('ROLLBACK').catch(() => undefined);
    await holder.end();
    await store.close();
    await endPool(pool);
    await db.drop();
  });

  /** The poller everyone writes first, and the bug this file is about. */
  async function naivePoll(checkpoint: bigint): Promise<{ ids: string[]; checkpoint: bigint }> {
    const { rows } = await pool.query<{ event_id: string; global_position: string }>(
      'SELECT event_id::text AS event_id, global_position::text AS global_position FROM events WHERE global_position > $1 ORDER BY global_position',
      [checkpoint.toString()],
    );
    const last = rows.at(-1);
    return { ids: rows.map((r) => r.event_id), checkpoint: last ? BigInt(last.global_position) : checkpoint };
  }

  it('a naive global_position poller skips the early event; readAll and subscribe deliver both, in commit-safe order', async () => {
    const early = newEvent('Early');
    const late = newEvent('Late');
    const received: RecordedEvent[] = [];
    const subscription: Subscription = store.subscribe(START).subscribe((e) => received.push(e));
    try {
      // append A, exactly as the adapter does it, inside a transaction that stays open
      await holder.query('BEGIN');
      const held = await holder.query<{ global_position: string }>(appendStatement(streamId('early'), [early], 'no_stream'));
      const earlyPosition = BigInt(held.rows[0]?.global_position ?? NaN);

      // append B through the adapter: it takes a later position and commits first
      const lateStream = streamId('late');
      const lateResult = await store.append(lateStream, [late], 'no_stream');
      const positionOf = async (id: string) =>
        BigInt((await pool.query<{ p: string }>('SELECT global_position::text AS p FROM events WHERE event_id = $1', [id])).rows[0]?.p ?? NaN);
      expect(await positionOf(late.id) > earlyPosition, 'B has the later global_position').to.equal(true);
      expect((await store.readStream(lateStream)).map((e) => e.id)).to.deep.equal([late.id]);

      // the naive poller sees B and moves its checkpoint past A's position
      const first = await naivePoll(0n);
      expect(first.ids).to.deep.equal([late.id]);

      // the adapter holds B back while A's transaction (with a smaller xid) is still open
      expect(await store.readAll(START, 100)).to.deep.equal([]);
      await sleep(150);
      expect(received).to.deep.equal([]);

      await holder.query('COMMIT');

      // (a) the naive poller never sees A: skipped for good
      const second = await naivePoll(first.checkpoint);
      expect(second.ids).to.deep.equal([]);
      expect([...first.ids, ...second.ids]).not.to.include(early.id);

      // (b) the adapter delivers both, A first
      const all = await eventually(() => store.readAll(START, 100), (events) => events.length >= 2);
      expect(all.map((e) => e.id)).to.deep.equal([early.id, late.id]);
      await eventually(async () => received.length, (n) => n >= 2);
      expect(received.map((e) => e.id)).to.deep.equal([early.id, late.id]);
      expect(all[1]?.position).to.equal(lateResult.position);
    } finally {
      subscription.unsubscribe();
    }
  });
});
