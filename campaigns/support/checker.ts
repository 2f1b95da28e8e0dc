// The campaigns' checker: after a run (the service stopped), each acknowledged answer of the
// Records log is looked up in the event store and the read models, invoice numbers issued twice
// are counted, and every live read model is compared row by row with one rebuilt from history by
// the same projectors in a scratch copy of the database.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/platform/config.ts';
import { openEmbeddedDataDir } from '../../src/platform/db/embedded-default.ts';
import { openService } from '../../src/service.ts';
import type { AckRecord } from './records.ts';
import { POSTGRES_ADMIN_URL, type CampaignService } from './service.ts';

/**
 * Columns left out of the live-versus-rebuilt comparison, and why each legitimately differs.
 * Everything else a projector writes must come out of history exactly as it went in.
 */
export const IGNORED_COLUMNS: Record<string, { columns: string[]; why: string }> = {};

/** An acknowledged answer the store or a read model does not show (at its version). */
export interface Lost {
  record: AckRecord;
  where: 'event store' | 'read model';
  found: string;
}

export interface TableDiff {
  table: string;
  live: number;
  rebuilt: number;
  /** rows in one and not the other (a changed row counts twice: its live and its rebuilt form) */
  differing: number;
  /** a few of them, for the report */
  samples: string[];
}

export interface CheckResult {
  /** acknowledged commands in the log (setup included) */
  acknowledged: number;
  /** those found in the event store and the read models at least at their acknowledged version */
  found: number;
  lost: Lost[];
  /** invoices, credit notes, payments and SAPI documents the store has for the load's companies that no answer acknowledged (allowed: a kill between the commit and the answer) */
  appliedUnacknowledged: number;
  /** (organisation, tax year, number) with more than one invoice */
  numbersIssuedTwice: number;
  tables: TableDiff[];
  /** sum of differing rows over all tables */
  diffRows: number;
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Opens the deployment's database while the service is stopped (PGlite has one owner). */
async function openDatabase(url: string | undefined, dataDir: string): Promise<{ query: Query; close(): Promise<void> }> {
  const embedded = url ? undefined : await openEmbeddedDataDir(dataDir);
  const client = new pg.Client({ connectionString: url ?? embedded!.connectionString });
  await client.connect();
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[],
    async close() {
      await client.end();
      await embedded?.close();
    },
  };
}

/** Checks the Records log against the stopped deployment. */
export async function check(service: CampaignService, records: AckRecord[]): Promise<CheckResult> {
  const rebuilt = await rebuildInScratch(service);
  const db = await openDatabase(service.databaseUrl, service.dataDir);
  try {
    const result = await lookUp(db.query, records);
    const live = await dumpTables(db.query, rebuilt.tables);
    const diffs = rebuilt.tables.map((table) => compareTable(table, live.get(table) ?? [], rebuilt.rows.get(table) ?? []));
    return { ...result, tables: diffs, diffRows: diffs.reduce((sum, d) => sum + d.differing, 0) };
  } finally {
    await db.close();
  }
}

async function lookUp(query: Query, records: AckRecord[]): Promise<Omit<CheckResult, 'tables' | 'diffRows'>> {
  const lost: Lost[] = [];
  const ids = (kinds: AckRecord['kind'][]) => [...new Set(records.filter((r) => kinds.includes(r.kind)).map((r) => r.id))];
  const lookup = async (sql: string, values: string[]) => new Map((await query(sql, [values])).map((row) => [String(row.id), row]));

  // invoices and credit notes: the stream's last revision and the register's version
  const invoiceIds = ids(['invoice.create', 'invoice.edit', 'invoice.send', 'credit-note.create']);
  const revisions = await lookup(`SELECT substr(stream_id, 9) AS id, max(stream_revision)::int AS revision FROM events WHERE stream_id = ANY(SELECT 'invoice-' || x FROM unnest($1::text[]) x) GROUP BY stream_id`, invoiceIds);
  const register = await lookup(`SELECT id::text AS id, version, status, invoice_number FROM invoices WHERE id::text = ANY($1)`, invoiceIds);
  const payments = await lookup(`SELECT id::text AS id FROM payments WHERE id::text = ANY($1)`, ids(['payment.create']));
  const paymentEvents = await lookup(`SELECT data->>'payment_id' AS id FROM events WHERE stream_id LIKE 'payments-%' AND data->>'payment_id' = ANY($1)`, ids(['payment.create']));
  const webhooks = await lookup(`SELECT id::text AS id, is_active FROM webhook_endpoints WHERE id::text = ANY($1)`, ids(['webhook.create', 'webhook.delete']));
  const customers = await lookup(`SELECT id::text AS id FROM customers WHERE id::text = ANY($1)`, ids(['customer.create']));
  const sent = await lookup(`SELECT provider_document_id AS id, document_id::text AS document FROM sapi_documents WHERE provider_document_id = ANY($1)`, ids(['sapi.send']));
  const sentStreams = await lookup(`SELECT substr(stream_id, 15) AS id FROM events WHERE stream_id = ANY(SELECT 'sapi_document-' || x FROM unnest($1::text[]) x) GROUP BY stream_id`, [...sent.values()].map((r) => String(r.document)));
  const inbox = await lookup(`SELECT document_id AS id, status FROM sapi_inbox_documents WHERE document_id = ANY($1)`, ids(['sapi.acknowledge']));

  for (const record of records) {
    const miss = (where: Lost['where'], found: string) => lost.push({ record, where, found });
    switch (record.kind) {
      case 'invoice.create':
      case 'invoice.edit':
      case 'credit-note.create': {
        const revision = revisions.get(record.id)?.revision as number | undefined;
        const row = register.get(record.id);
        const version = record.kind === 'credit-note.create' ? (record.version ?? 0) : (record.version ?? 0);
        if (revision === undefined || revision < version) miss('event store', `revision ${revision ?? 'none'} < ${version}`);
        else if (!row || (row.version as number) < version) miss('read model', `version ${row ? String(row.version) : 'no row'} < ${version}`);
        else if (record.number && row.invoice_number !== record.number) miss('read model', `number ${String(row.invoice_number)} ≠ ${record.number}`);
        break;
      }
      case 'invoice.send': {
        const row = register.get(record.id);
        if (!revisions.has(record.id)) miss('event store', 'no stream');
        else if (!row || row.status === 'draft') miss('read model', `status ${row ? String(row.status) : 'no row'}`);
        break;
      }
      case 'payment.create':
        if (!paymentEvents.has(record.id)) miss('event store', 'no PaymentRecorded');
        else if (!payments.has(record.id)) miss('read model', 'no row');
        break;
      case 'webhook.create':
        if (!webhooks.has(record.id)) miss('read model', 'no row');
        break;
      case 'webhook.delete':
        if (webhooks.get(record.id)?.is_active !== false) miss('read model', `is_active ${String(webhooks.get(record.id)?.is_active)}`);
        break;
      case 'customer.create':
        if (!customers.has(record.id)) miss('read model', 'no row');
        break;
      case 'sapi.send': {
        const row = sent.get(record.id);
        if (!row) miss('read model', 'no row');
        else if (!sentStreams.has(String(row.document))) miss('event store', 'no stream');
        break;
      }
      case 'sapi.acknowledge':
        if (inbox.get(record.id)?.status !== 'ACKNOWLEDGED') miss('read model', `status ${String(inbox.get(record.id)?.status ?? 'no row')}`);
        break;
    }
  }

  // in the store, not acknowledged: what the load's companies made through the API and no answer named
  const companies = [...new Set(records.map((r) => r.company))];
  const acknowledged = new Set(records.map((r) => r.id));
  const made = [
    ...(await query(`SELECT id::text AS id FROM invoices WHERE company_id::text = ANY($1) AND source = 'api'`, [companies])),
    ...(await query(`SELECT id::text AS id FROM payments WHERE company_id::text = ANY($1)`, [companies])),
    ...(await query(`SELECT provider_document_id AS id FROM sapi_documents WHERE company_id::text = ANY($1)`, [companies])),
  ];
  const sapiInvoices = new Set((await query(`SELECT view->>'invoiceId' AS id FROM sapi_documents WHERE company_id::text = ANY($1)`, [companies])).map((r) => String(r.id)));
  const appliedUnacknowledged = made.filter((r) => !acknowledged.has(String(r.id)) && !sapiInvoices.has(String(r.id))).length;

  // invoice numbers: one invoice per (organisation, tax year, number), outbound and credit notes alike
  const twice = await query(`SELECT organisation_id, extract(year FROM issue_date) AS year, invoice_number, count(*)::int AS n
    FROM invoices WHERE source = 'api' GROUP BY 1, 2, 3 HAVING count(*) > 1`);
  return {
    acknowledged: records.length,
    found: records.length - new Set(lost.map((l) => l.record)).size,
    lost,
    appliedUnacknowledged,
    numbersIssuedTwice: twice.reduce((sum, r) => sum + (r.n as number) - 1, 0),
  };
}

async function dumpTables(query: Query, tables: string[]): Promise<Map<string, string[]>> {
  const dumped = new Map<string, string[]>();
  for (const table of tables) {
    const ignored = new Set(IGNORED_COLUMNS[table]?.columns ?? []);
    const rows = await query(`SELECT * FROM ${table}`);
    dumped.set(table, rows.map((row) => canonical(Object.fromEntries(Object.entries(row).filter(([column]) => !ignored.has(column))))).sort());
  }
  return dumped;
}

function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function compareTable(table: string, live: string[], rebuilt: string[]): TableDiff {
  const count = (rows: string[]) => rows.reduce((m, r) => m.set(r, (m.get(r) ?? 0) + 1), new Map<string, number>());
  const a = count(live);
  const b = count(rebuilt);
  const samples: string[] = [];
  let differing = 0;
  for (const [row, n] of a) {
    const extra = n - (b.get(row) ?? 0);
    if (extra > 0) {
      differing += extra;
      if (samples.length < 3) samples.push(`live only: ${row.slice(0, 600)}`);
    }
  }
  for (const [row, n] of b) {
    const extra = n - (a.get(row) ?? 0);
    if (extra > 0) {
      differing += extra;
      if (samples.length < 6) samples.push(`rebuilt only: ${row.slice(0, 600)}`);
    }
  }
  return { table, live: live.length, rebuilt: rebuilt.length, differing, samples };
}

/**
 * A copy of the stopped deployment's database (PGlite: its files; Postgres: CREATE DATABASE …
 * TEMPLATE), every projector reset and replayed there from the copied history by the service's own
 * ProjectionRunner (as `npm run cli -- projections rebuild` does), and the tables dumped.
 */
async function rebuildInScratch(service: CampaignService): Promise<{ tables: string[]; rows: Map<string, string[]> }> {
  const scratchDir = await mkdtemp(path.join(tmpdir(), 'campaign-rebuild-'));
  let scratchUrl: string | undefined;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    if (service.databaseUrl) {
      const live = new URL(service.databaseUrl).pathname.slice(1);
      const name = `${live}_rebuilt`;
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${live}`);
      const url = new URL(service.databaseUrl);
      url.pathname = `/${name}`;
      scratchUrl = url.toString();
    } else {
      await cp(path.join(service.dataDir, 'pgdata'), path.join(scratchDir, 'pgdata'), { recursive: true });
    }
    const env = { ...service.env, DATA_DIR: scratchDir, DATABASE_URL: scratchUrl ?? '', REDIS_URL: '', EVENTSTORE_URL: '' };
    const rebuilt = await openService(loadConfig(env), { log: pino({ level: 'warn' }), runProjections: false, runReactors: false });
    try {
      for (const projector of rebuilt.projections.projectors) {
        await rebuilt.projections.rebuild(projector);
      }
      const tables = rebuilt.projections.projectors.flatMap((p) => p.tables);
      return { tables, rows: await dumpTables((sql, params) => rebuilt.readModels.query(sql, params), tables) };
    } finally {
      await rebuilt.close();
    }
  } finally {
    if (scratchUrl) {
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(scratchUrl).pathname.slice(1)} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
    await rm(scratchDir, { recursive: true, force: true });
  }
}
