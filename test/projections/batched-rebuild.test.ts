// A rebuild folds thousands of events per batch (set-based phases, rows read once, one upsert):
// it must make exactly the rows that applying the same history one event at a time makes. The
// history is the rebuild bench's (bench/rebuild-history.ts: every event type the read models
// read, with the fixtures' payloads, streams interleaved), rebuilt by the real runner with
// batches of 1, 7 and 5000 events. PGlite by default, Postgres with DATABASE_URL.
import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import { fillHistory } from '../../bench/rebuild-history.ts';
import { invoiceApprovals } from '../../projections/approvals/projector.ts';
import { apiKeys } from '../../projections/api-keys/projector.ts';
import { bulkImportJobs } from '../../projections/bulk-import-jobs/projector.ts';
import { creditNoteAllowance } from '../../projections/credit-note-allowance/projector.ts';
import { CustomerEntity } from '../../projections/customer-directory/entity.ts';
import { customerDirectory } from '../../projections/customer-directory/projector.ts';
import { identity } from '../../projections/identity/projector.ts';
import { invoiceRegister } from '../../projections/invoices/projector.ts';
import { payments } from '../../projections/payments/projector.ts';
import { peppolReporting } from '../../projections/peppol-reporting/projector.ts';
import { sapiClients } from '../../projections/sapi-clients/projector.ts';
import { sapiDocuments } from '../../projections/sapi-documents/projector.ts';
import { sapiInbox } from '../../projections/sapi-inbox/projector.ts';
import { tenancy } from '../../projections/tenancy/projector.ts';
import { webhookEndpoints } from '../../projections/webhook-endpoints/projector.ts';
import { createEventStore, type EventStore } from '../../src/platform/eventstore/index.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import type { Projector } from '../../src/platform/readmodel/projector.ts';
import type { DataSource } from 'typeorm';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

// tenancy first: api-keys and sapi-clients share tables with it and with each other
const PROJECTORS: Projector[] = [
  tenancy, identity, customerDirectory, invoiceRegister, creditNoteAllowance, payments, invoiceApprovals,
  webhookEndpoints, sapiDocuments, sapiInbox, bulkImportJobs, apiKeys, sapiClients, peppolReporting,
];

describe('read models: a rebuild in big batches makes the same rows as one event at a time', function () {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let db: DataSource;
  const log = pino({ level: 'silent' });

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    store = await createEventStore({ pool });
    db = await openReadModels(database.connectionString, PROJECTORS, [CustomerEntity], 4);
    const size = { customers: 8, invoices: 14, received: 4, sapiDocuments: 8, inbox: 10, sessions: 8 };
    await fillHistory(store, 3, size, 7, 3);
  });
  after(async () => {
    await db?.destroy();
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  const rowsOf = async (projector: Projector) => {
    const tables: Record<string, unknown[]> = {};
    for (const table of projector.tables) tables[table] = await db.query(`SELECT * FROM ${table} ORDER BY 1`);
    return tables;
  };

  const indexesOf = async (projector: Projector) =>
    db.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY($1) ORDER BY indexname`, [projector.tables]) as Promise<unknown[]>;

  // batches of 5000 go through runner.rebuild, as `projections rebuild` does: its secondary
  // indexes are set aside while it catches up and built again at the end, the same as before
  const rebuilt = async (projector: Projector, catchUpBatchSize: number) => {
    const runner = new ProjectionRunner(store, db, [projector], log, { catchUpBatchSize });
    if (catchUpBatchSize === 5000) {
      const indexes = await indexesOf(projector);
      await runner.rebuild(projector);
      expect(await indexesOf(projector), `${projector.name}: its indexes after the rebuild`).to.deep.equal(indexes);
    } else {
      await runner.reset(projector);
      await runner.catchUp(projector);
    }
    expect(await runner.parked(), `${projector.name}: events it could not apply`).to.deep.equal([]);
    return rowsOf(projector);
  };

  for (const projector of PROJECTORS) {
    it(projector.name, async () => {
      const one = await rebuilt(projector, 1);
      expect(Object.values(one).some((rows) => rows.length > 0), 'the history gives it rows').to.equal(true);
      expect(await rebuilt(projector, 7), 'batches of 7').to.deep.equal(one);
      expect(await rebuilt(projector, 5000), 'batches of 5000').to.deep.equal(one);
    });
  }
});
