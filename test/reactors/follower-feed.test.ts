import { expect } from 'chai';
import { pino } from 'pino';
import { Subject, firstValueFrom } from 'rxjs';
import type { AppendedTypes } from '../../src/platform/eventstore/port.ts';
import { followerFeed, type FollowerFeed } from '../../src/platform/followers/follower-feed.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { eventually } from '../support/poll.ts';

const log = pino({ level: 'silent' });

describe('follower feed (several instances on one Postgres)', () => {
  if (!process.env.DATABASE_URL) {
    it('not run on PGlite — its connections share one session, so a NOTIFY never reaches another listener; set DATABASE_URL to run the feed on Postgres');
    return;
  }

  let db: TestDatabase;
  const opened: FollowerFeed[] = [];
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((f) => f.close()));
    await db.drop();
  });

  it("tells the other instance's followers the types and the highest position appended, so a read below it is tried again soon", async () => {
    const ownAppends = new Subject<AppendedTypes>();
    const a = await followerFeed({ url: db.connectionString, log, appended: ownAppends });
    const b = await followerFeed({ url: db.connectionString, log, appended: new Subject<AppendedTypes>() });
    opened.push(a, b);
    await eventually(async () => a.peers(), (heardOfB) => heardOfB, { what: 'instance A heard B say hello' });

    const heard = firstValueFrom(b.appended$);
    ownAppends.next({ position: '00000000000000000700:00000000000000000002', types: ['CustomerRegistered'] });
    ownAppends.next({ position: '00000000000000000701:00000000000000000003', types: ['InvoiceCreated'] });
    const first = await heard;
    expect(first.types).to.include('CustomerRegistered');
    // a message may carry both appends or only the first: either way its position is the highest it covers
    expect(first.position).to.equal(first.types.includes('InvoiceCreated') ? '00000000000000000701:00000000000000000003' : '00000000000000000700:00000000000000000002');
  });
});
