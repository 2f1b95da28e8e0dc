// A projector copies many new rows (COPY … FROM STDIN, src/platform/readmodel/copy-rows.ts) where
// the server takes it: every value must arrive as the INSERT it replaces would write it, whatever
// it holds (the four characters COPY's text format escapes, a literal \N, characters beyond
// Latin-1, JSON with escapes, a field longer than a chunk). On PGlite there is no copier.
// PGlite by default, Postgres with DATABASE_URL.
import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import { copyChunks } from '../../src/platform/db/copy-in.ts';
import { copierOf } from '../../src/platform/readmodel/copy-rows.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

interface Row { id: number; name: string | null; amount: string; doc: object | null }

const AWKWARD = ['tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash', '\\N', '\\', 'Odberateľ ŽŠČ €', 'emoji 🧾 end', '', 'x'.repeat(300_000)];

const rows: Row[] = AWKWARD.map((name, i) => ({
  id: i, name, amount: `${i}.50`, doc: { name, nested: { quote: '"', slash: '\\', unicode: '\u0001ľ' }, list: [1, null, 'a\tb'] },
}));
rows.push({ id: rows.length, name: null, amount: '0.00', doc: null });

describe('read-model rows copied where the server takes COPY', function () {
  let database: TestDatabase;
  let db: DataSource;

  before(async () => {
    database = await freshDatabase();
    db = await openReadModels(database.connectionString, [], [], 2);
    await db.query('CREATE TABLE copied (id int PRIMARY KEY, name text, amount numeric, doc jsonb)');
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('writes every value as an INSERT of the same values does (Postgres), and offers no copier on PGlite', async () => {
    const copied = await db.transaction(async (tx) => {
      const copy = await copierOf(tx);
      if (database.kind === 'pglite') {
        expect(copy).to.equal(null);
        return null;
      }
      expect(copy).to.be.a('function');
      return copy!('COPY copied (id, name, amount, doc) FROM STDIN', copyChunks(rows, ['id', 'name', 'amount', 'doc'], 64 * 1024));
    });
    if (copied === null) return;
    expect(copied).to.equal(rows.length);
    await db.query(`CREATE TABLE inserted (LIKE copied)`);
    await db.query(`INSERT INTO inserted SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, name text, amount numeric, doc jsonb)`, [JSON.stringify(rows)]);
    const read = (table: string) => db.query(`SELECT id, name, amount::text AS amount, doc FROM ${table} ORDER BY id`) as Promise<Row[]>;
    const back = await read('copied');
    expect(back).to.deep.equal(await read('inserted'));
    expect(back.map((r) => r.name)).to.deep.equal([...AWKWARD, null]);
  });

  it('fails the transaction on a bad row and leaves the connection usable (Postgres)', async function () {
    if (database.kind === 'pglite') this.skip();
    const failing = db.transaction(async (tx) => {
      const copy = (await copierOf(tx))!;
      await copy('COPY copied (id, name, amount, doc) FROM STDIN', copyChunks([{ id: 1_000, name: 'a', amount: 'not a number', doc: null }], ['id', 'name', 'amount', 'doc']));
    });
    const error = await failing.then(() => null, (e: unknown) => e);
    expect(String(error)).to.match(/numeric/);
    expect(await db.query('SELECT count(*)::int AS n FROM copied WHERE id = 1000')).to.deep.equal([{ n: 0 }]);
  });
});
