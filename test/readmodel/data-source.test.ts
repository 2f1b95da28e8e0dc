import { expect } from 'chai';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

describe('read-model connections', () => {
  let database: TestDatabase;
  let readModels: DataSource;
  before(async () => {
    database = await freshDatabase();
    readModels = await openReadModels(database.connectionString, [], [], 2);
  });
  after(async () => {
    await readModels.destroy();
    await database.drop();
  });

  it('commit without waiting for the WAL flush on Postgres, and only they: other connections (the event store’s) keep full durability', async () => {
    const setting = async (query: (sql: string) => Promise<{ synchronous_commit: string }[]>) => (await query('SHOW synchronous_commit'))[0]?.synchronous_commit;
    // PGlite ignores the setting, and must: its connections share one session with the event store's
    expect(await setting((sql) => readModels.query(sql))).to.equal(database.kind === 'postgres' ? 'off' : 'on');
    const other = new pg.Client({ connectionString: database.connectionString });
    await other.connect();
    try {
      expect(await setting(async (sql) => (await other.query<{ synchronous_commit: string }>(sql)).rows)).to.equal('on');
    } finally {
      await other.end();
    }
  });
});
