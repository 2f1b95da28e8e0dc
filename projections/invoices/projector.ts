import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from '../../commands/invoices/delivery.ts';
import type { CreditNoteCreated, CreditNoteEvent } from '../../events/credit-notes.ts';
import { APPROVAL_EVENT_TYPES, type ApprovalEvent } from '../../events/approvals.ts';
import { DELIVERY_EVENT_TYPES, type DeliveryEvent, type InvoiceReceived } from '../../events/delivery.ts';
import type { InvoiceCreated, InvoiceUpdated, InvoiceValidated } from '../../events/invoices.ts';
import { copyChunks } from '../../src/platform/db/copy-in.ts';
import { copierOf } from '../../src/platform/readmodel/copy-rows.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { INVOICE_REGISTER } from './queries.ts';
import { contentFields, createdRow, creditNoteRow, newRow, type InvoiceDocument, type NewRow } from './rows.ts';
import { InvoiceDelivery1763900000000 } from './delivery-migration.ts';
import { InvoicesFsMessage1766500000000 } from './fs-message-migration.ts';
import { Invoices1763800002000 } from './migration.ts';
import { InvoicesLz4Compression1765000000000 } from './lz4-migration.ts';
import { InvoicesUnboundedColumns1764100000100 } from './unbounded-columns-migration.ts';

const COLUMNS = `id, organisation_id, company_id, workspace_id, invoice_number, invoice_type, status, issue_date, due_date,
  currency_code, supplier_name, buyer_name, buyer_vat_id, customer_id, total_net, total_vat, total_gross, search, created_by,
  created_at, updated_at, version, document, source, peppol_message_id, fs_submission_id, delivery`;

/**
 * A batch's new rows and the moves of the invoices it credits, in ONE statement, read from
 * `jsonb_to_recordset(source)` (`Written` rows: new rows, and credit rows marked `credit`). New
 * rows are inserted (a row already there stays as it is). A credit row proposes the invoice's own
 * row (read by its key) under the marker source 'credit', which always conflicts, and the conflict
 * moves only version, updated_at and a void's status; no new row carries that marker, so a new
 * row's conflict changes nothing, as DO NOTHING would. One statement, one snapshot: the ids in it
 * are distinct and none is both new and credited (`windows` sees to it).
 */
const writeRows = (source: string) =>
  `INSERT INTO invoices (${COLUMNS})
   SELECT r.id, r.organisation_id, r.company_id, r.workspace_id, r.invoice_number, r.invoice_type, r.status, r.issue_date, r.due_date,
     r.currency_code, r.supplier_name, r.buyer_name, r.buyer_vat_id, r.customer_id, r.total_net, r.total_vat, r.total_gross, r.search,
     r.created_by, r.created_at, COALESCE(r.updated_at, r.created_at), r.version, r.document, r.source, r.peppol_message_id, r.fs_submission_id, r.delivery
   FROM jsonb_to_recordset(${source}) AS r(id uuid, organisation_id uuid, company_id uuid, workspace_id uuid, invoice_number text,
     invoice_type text, status text, issue_date date, due_date date, currency_code text, supplier_name text, buyer_name text,
     buyer_vat_id text, customer_id uuid, total_net numeric, total_vat numeric, total_gross numeric, search text, created_by text,
     created_at timestamptz, updated_at timestamptz, version int, document jsonb, source text, peppol_message_id text,
     fs_submission_id text, delivery jsonb, credit boolean)
   WHERE r.credit IS NULL
   UNION ALL
   SELECT i.id, i.organisation_id, i.company_id, i.workspace_id, i.invoice_number, i.invoice_type,
     CASE WHEN c.voided THEN 'voided' ELSE i.status END, i.issue_date, i.due_date, i.currency_code, i.supplier_name, i.buyer_name,
     i.buyer_vat_id, i.customer_id, i.total_net, i.total_vat, i.total_gross, i.search, i.created_by, i.created_at, c.updated_at,
     c.version, i.document, 'credit', i.peppol_message_id, i.fs_submission_id, i.delivery
   FROM jsonb_to_recordset(${source}) AS c(id uuid, version int, updated_at timestamptz, voided boolean, credit boolean)
   -- by its key, one row each: a plain join with a row set of unknown size may let the planner scan the table
   CROSS JOIN LATERAL (SELECT * FROM invoices WHERE invoices.id = c.id OFFSET 0) AS i
   WHERE c.credit
   ON CONFLICT (id) DO UPDATE SET version = GREATEST(invoices.version, EXCLUDED.version), updated_at = EXCLUDED.updated_at,
     status = CASE WHEN EXCLUDED.status = 'voided' THEN 'voided' ELSE invoices.status END
   WHERE EXCLUDED.source = 'credit'`;

/** A document the register gets a new row for. */
type NewDocument = InvoiceCreated | InvoiceReceived | CreditNoteCreated;
/** Every event the register reads. */
type RegisterEvent = NewDocument | InvoiceUpdated | InvoiceValidated | DeliveryEvent | CreditNoteEvent | ApprovalEvent;
type Event = Recorded<RegisterEvent>;

const isNewInvoice = (event: Event): event is Recorded<NewDocument> =>
  event.type === 'InvoiceCreated' || event.type === 'InvoiceReceived' || event.type === 'CreditNoteCreated';

/** What credit notes record on the invoice they credit: each moves its version (the next If-Match); a void also its status. */
const CREDIT_NOTE_EVENT_TYPES: readonly CreditNoteEvent['type'][] = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'];

const isOneOf = <E extends RegisterEvent>(types: readonly E['type'][]) => (event: Event): event is Recorded<E> => (types as readonly string[]).includes(event.type);
const isCreditMove = isOneOf<CreditNoteEvent>(CREDIT_NOTE_EVENT_TYPES);
const isDelivery = isOneOf<DeliveryEvent>(DELIVERY_EVENT_TYPES);
const isApproval = isOneOf<ApprovalEvent>(APPROVAL_EVENT_TYPES);

/** Invoice list and detail: slim columns to filter and sort on, the whole document beside them. */
export const invoiceRegister = defineProjector<RegisterEvent>({
  name: INVOICE_REGISTER,
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated', 'InvoiceReceived', 'CreditNoteCreated', ...DELIVERY_EVENT_TYPES, ...CREDIT_NOTE_EVENT_TYPES, ...APPROVAL_EVENT_TYPES],
  tables: ['invoices'],
  readsMetadata: false,
  migrations: [Invoices1763800002000, InvoiceDelivery1763900000000, InvoicesUnboundedColumns1764100000100, InvoicesLz4Compression1765000000000, InvoicesFsMessage1766500000000],

  // any batch (a rebuild's thousands of events): the rows it touches read once (in a catch-up,
  // those the batches before wrote are kept instead: WrittenRows), every event folded into them
  // here, and written back with one statement each for new and changed rows
  async apply(events, tx, kept) {
    const keeping = kept instanceof WrittenRows ? kept : new WrittenRows();
    const rows = new Map<string, StoredRow>();
    const toRead: string[] = [];
    for (const event of events) {
      const id = documentId(event);
      if (rows.has(id)) continue;
      // folded in place: a batch that fails is applied again without what was kept (Projector.apply)
      const known = keeping.get(id);
      if (known) rows.set(id, known);
      else toRead.push(id);
    }
    const existing = new Set(rows.values());
    if (toRead.length > 0) {
      const stored: StoredRow[] = await tx.query(`SELECT ${STORED_COLUMNS} FROM invoices WHERE id = ANY($1::uuid[])`, [toRead]);
      for (const row of stored) {
        rows.set(row.id, row);
        existing.add(row);
      }
    }
    const written = new Set<StoredRow>();
    const shadowed = new Set<string>();
    for (const event of events) {
      const row = foldInto(rows, shadowed, event);
      if (row) written.add(row);
    }
    const inserted = [...written].filter((r) => !existing.has(r));
    const updated = [...written].filter((r) => existing.has(r));
    // many new rows (a rebuild's batches) are copied where the server can: it stores them for
    // about half of what reading them out of one JSON parameter costs it (see copy-rows.ts)
    const copy = inserted.length >= COPY_MIN_ROWS ? await copierOf(tx) : null;
    if (copy) await copy(COPY_ROWS, copyChunks(inserted, COPY_COLUMNS));
    // in chunks: the client prints the next one while the server writes the one before (one
    // statement at a time on the connection), and folds what it keeps during the last one
    let writing: Promise<unknown> = Promise.resolve();
    for (const statement of statements(copy ? [] : inserted, updated)) {
      const parameters = statement();
      await writing;
      writing = tx.query(...parameters);
    }
    keeping.keep(written); // every statement is printed by now: only the last may still be written
    await writing;
    return keeping;
  },

  // the common batches while following: creates (and receipts) with their first delivery steps,
  // and the credit notes' moves of the invoices they credit (a credit note writes both at once)
  newRows: (events) => {
    if (!onlyNewRowsPossible(events)) return null;
    const { rows, rest } = withDeliveryFolded(events);
    const [only, ...more] = steps(rest, rows);
    return only && 'rows' in only && more.length === 0 ? { rows: only.rows, insert: writeRows } : null;
  },
});

/**
 * Rows per statement of apply: a rebuild's batch writes about a thousand rows, a few MB of JSON,
 * which the server would wait for the client to print whole; in chunks, printing and writing overlap.
 */
const CHUNK_ROWS = 250;

/** Fewer new rows than this are inserted (one statement with the rest): a COPY costs a round trip of its own. */
const COPY_MIN_ROWS = 100;

const COPY_ROWS = `COPY invoices (${COLUMNS}) FROM STDIN`;
const COPY_COLUMNS = COLUMNS.split(',').map((c) => c.trim()) as (keyof StoredRow)[];

/** apply's statements, each printed only when called: the new rows' INSERTs, then the changed rows' UPDATEs (their ids differ, so order does not matter). */
function* statements(inserted: readonly StoredRow[], updated: readonly StoredRow[]): Generator<() => [string, unknown[]]> {
  for (let at = 0; at < inserted.length; at += CHUNK_ROWS) {
    yield () => [INSERT_ROWS, [JSON.stringify(inserted.slice(at, at + CHUNK_ROWS))]];
  }
  for (let at = 0; at < updated.length; at += CHUNK_ROWS) {
    const rows = updated.slice(at, at + CHUNK_ROWS);
    yield () => [UPDATE_ROWS, [JSON.stringify(rows), rows.map((r) => r.id)]];
  }
}

/**
 * A quick look before newRows folds anything: a batch can be one statement only if every event is
 * a new document, a credit move, or a delivery step of a document new earlier in the batch. Any
 * other event (an edit, a validation, a step of a stored document: most of a rebuild's batches)
 * makes steps() apply it alone, so the answer is null without mapping a single row.
 */
function onlyNewRowsPossible(events: readonly Event[]): boolean {
  const opened = new Set<string>();
  for (const event of events) {
    if (isNewInvoice(event)) opened.add(documentId(event));
    else if (!isCreditMove(event) && !(isDelivery(event) && opened.has(documentId(event)))) return false;
  }
  return true;
}

/** What credit notes record on an invoice they credit, a run of them at once: the version moves to the last of its events, a void also sets the status. */
interface CreditRow { id: string; version: number; updated_at: string; voided: boolean; credit: true }

/** One statement's rows (writeRows), or one event applied alone. */
type Step = { rows: (NewRow | CreditRow)[] } | { event: Event };

/**
 * The batch as statements, keeping each row's own order (rows are independent of each other):
 * new rows and credit moves gather in one window, written with one statement, until an event
 * touches a row already in it in a way the statement cannot keep in order (a second new row of
 * the same id, a credit to a row new in it, or any other change): then the window is written
 * first. Any other change of a row not in the window is applied at once, ahead of it. So a batch
 * of credit notes (each a new row and its invoice's moves) costs one statement, not two per note.
 */
function steps(events: readonly Event[], folded: ReadonlyMap<Event, NewRow>): Step[] {
  const out: Step[] = [];
  let window = new Map<string, NewRow | CreditRow>();
  const flush = () => {
    if (window.size > 0) out.push({ rows: [...window.values()] });
    window = new Map();
  };
  for (const event of events) {
    if (isNewInvoice(event)) {
      const row = folded.get(event) ?? toNewRow(event);
      if (window.has(row.id)) flush();
      window.set(row.id, row);
      continue;
    }
    const id = event.data.invoice_id;
    const seen = window.get(id);
    if (!isCreditMove(event)) {
      if (seen) flush();
      out.push({ event });
    } else if (seen && !('credit' in seen)) {
      flush();
      window.set(id, creditRow(undefined, event));
    } else {
      window.set(id, creditRow(seen, event));
    }
  }
  flush();
  return out;
}

function creditRow(seen: CreditRow | undefined, event: Recorded<CreditNoteEvent>): CreditRow {
  return {
    id: event.data.invoice_id, version: Math.max(seen?.version ?? -1, event.revision),
    updated_at: event.recordedAt.toISOString(), voided: (seen?.voided ?? false) || event.type === 'InvoiceVoided', credit: true,
  };
}

/**
 * A document and its first delivery steps often arrive in one batch (a credit note is created
 * queued or delivered in one write; a rebuild replays whole streams): those steps are folded into
 * the new row before it is inserted, exactly as applyDelivery would apply them after, instead of a
 * read and an update each. Folding stops at the first other event of that document, so order holds.
 */
function withDeliveryFolded(events: readonly Event[]): { rows: Map<Event, NewRow>; rest: Event[] } {
  const rows = new Map<Event, NewRow>();
  const open = new Map<string, NewRow>();
  const rest: Event[] = [];
  for (const event of events) {
    if (isNewInvoice(event)) {
      const row = toNewRow(event);
      rows.set(event, row);
      open.set(row.id, row);
      rest.push(event);
      continue;
    }
    const id = event.data.invoice_id;
    const row = open.get(id);
    if (row && isDelivery(event)) {
      const delivery = evolveDelivery(row.delivery, event);
      Object.assign(row, {
        delivery, status: deliveryStatus(delivery) ?? row.status, peppol_message_id: delivery.peppol.message_id, fs_submission_id: fsMessageOf(delivery),
        version: event.revision, updated_at: event.recordedAt.toISOString(),
      });
      continue;
    }
    open.delete(id);
    rest.push(event);
  }
  return { rows, rest };
}

function toNewRow(event: Recorded<NewDocument>): NewRow {
  if (event.type === 'InvoiceCreated') return createdRow(event.data, event.revision);
  if (event.type === 'CreditNoteCreated') return creditNoteRow(event.data, event.revision);
  const d = event.data;
  const delivery = evolveDelivery(NO_DELIVERY, event);
  return newRow(d.content, d.totals, {
    id: d.invoice_id, organisation_id: d.organisation_id, company_id: d.company_id, workspace_id: d.workspace_id,
    status: deliveryStatus(delivery) ?? 'delivered', created_by: d.sender_participant_id, created_at: d.received_at, version: event.revision,
    document: { content: d.content, totals: d.totals, warnings: [] }, source: 'peppol', peppol_message_id: d.peppol_message_id, delivery,
    fs_submission_id: fsMessageOf(delivery),
  });
}

/**
 * The FS leg's Peppol message id, which FS's submission is: known from the leg's start (where the
 * corner-5 MLS that answers it finds the invoice), or its submission's for legs begun before.
 */
const fsMessageOf = (delivery: Delivery): string | null => delivery.fs.submission_id ?? delivery.fs.message_id ?? null;

/** The id of the document an event of the register is about. */
function documentId(event: Event): string {
  return event.type === 'CreditNoteCreated' ? event.data.credit_note_id : event.data.invoice_id;
}

/**
 * A row of the register as apply folds it: every column in a form that writes back unchanged
 * (dates, amounts and times as the text Postgres prints; uuids as text; the jsonb as values),
 * but the document of a stored row, which is read and written only when an edit replaces it
 * (null until then: the UPDATE keeps the stored one, without reading or rewriting it).
 */
interface StoredRow {
  id: string; organisation_id: string; company_id: string; workspace_id: string; invoice_number: string; invoice_type: string;
  status: string; issue_date: string; due_date: string | null; currency_code: string; supplier_name: string; buyer_name: string;
  buyer_vat_id: string; customer_id: string | null; total_net: string; total_vat: string; total_gross: string; search: string;
  created_by: string; created_at: string; updated_at: string; version: number; document: InvoiceDocument | null; source: string;
  peppol_message_id: string | null; fs_submission_id: string | null; delivery: Delivery | null;
}

const STORED_COLUMNS = `id::text AS id, organisation_id::text AS organisation_id, company_id::text AS company_id, workspace_id::text AS workspace_id,
  invoice_number, invoice_type, status, issue_date::text AS issue_date, due_date::text AS due_date, currency_code, supplier_name, buyer_name,
  buyer_vat_id, customer_id::text AS customer_id, total_net::text AS total_net, total_vat::text AS total_vat, total_gross::text AS total_gross,
  search, created_by, created_at::text AS created_at, updated_at::text AS updated_at, version, NULL::jsonb AS document, source, peppol_message_id,
  fs_submission_id, delivery`;

const RECORDSET = `jsonb_to_recordset($1::jsonb) AS r(id uuid, organisation_id uuid, company_id uuid, workspace_id uuid, invoice_number text,
     invoice_type text, status text, issue_date date, due_date date, currency_code text, supplier_name text, buyer_name text,
     buyer_vat_id text, customer_id uuid, total_net numeric, total_vat numeric, total_gross numeric, search text, created_by text,
     created_at timestamptz, updated_at timestamptz, version int, document jsonb, source text, peppol_message_id text,
     fs_submission_id text, delivery jsonb)`;

/** The batch's new rows (none of them stored: apply read the table first), in one statement. */
const INSERT_ROWS = `INSERT INTO invoices (${COLUMNS})
   SELECT r.id, r.organisation_id, r.company_id, r.workspace_id, r.invoice_number, r.invoice_type, r.status, r.issue_date, r.due_date,
     r.currency_code, r.supplier_name, r.buyer_name, r.buyer_vat_id, r.customer_id, r.total_net, r.total_vat, r.total_gross, r.search,
     r.created_by, r.created_at, r.updated_at, r.version, r.document, r.source, r.peppol_message_id, r.fs_submission_id, r.delivery
   FROM ${RECORDSET}
   ON CONFLICT (id) DO NOTHING`;

/** The stored rows the batch changed, in one statement, read by key (the ids also as an array: never a scan). */
const UPDATE_ROWS = `UPDATE invoices i SET invoice_number = r.invoice_number, invoice_type = r.invoice_type, status = r.status,
     issue_date = r.issue_date, due_date = r.due_date, currency_code = r.currency_code, supplier_name = r.supplier_name,
     buyer_name = r.buyer_name, buyer_vat_id = r.buyer_vat_id, customer_id = r.customer_id, total_net = r.total_net,
     total_vat = r.total_vat, total_gross = r.total_gross, search = r.search, updated_at = r.updated_at,
     version = r.version, document = COALESCE(r.document, i.document), peppol_message_id = r.peppol_message_id,
     fs_submission_id = r.fs_submission_id, delivery = r.delivery
   FROM ${RECORDSET}
   WHERE i.id = r.id AND i.id = ANY($2::uuid[])`;

/**
 * The rows the last batches of a catch-up wrote, as stored (the document left out: null keeps the
 * stored one), so the next batch reads back only the others: in a rebuild an invoice's events
 * come in a few neighbouring batches. At most KEPT_ROWS, the most recently written. One object
 * for the whole catch-up, changed in place by each batch (not copied: the copies were a tenth of
 * the client's work in a rebuild, with the garbage they made).
 */
class WrittenRows {
  private readonly rows = new Map<string, StoredRow>();

  get(id: string): StoredRow | undefined {
    return this.rows.get(id);
  }

  /** Keeps `written` as the most recent rows, their documents as stored (null), and forgets the oldest beyond KEPT_ROWS. */
  keep(written: ReadonlySet<StoredRow>): void {
    for (const row of written) {
      this.rows.delete(row.id); // to the end: the most recent
      row.document = null;
      this.rows.set(row.id, row);
    }
    for (const id of this.rows.keys()) {
      if (this.rows.size <= KEPT_ROWS) break;
      this.rows.delete(id);
    }
  }
}

/** Rows a catch-up keeps between batches: a few batches' worth, a few tens of MB at most. */
const KEPT_ROWS = 20_000;

/**
 * One event folded into the rows (by id), as the register's statements would change them: a new
 * document is added unless its row is there (ON CONFLICT DO NOTHING), every other event changes
 * only a row that is there. As withDeliveryFolded does, delivery steps that follow such a
 * repeated create in the batch went into the row that was not written (`shadowed`, until another
 * event of that document). Returns the row it changed, if any.
 */
function foldInto(rows: Map<string, StoredRow>, shadowed: Set<string>, event: Event): StoredRow | undefined {
  const id = documentId(event);
  const row = rows.get(id);
  if (isNewInvoice(event)) {
    if (row) {
      shadowed.add(id);
      return undefined;
    }
    const { updated_at, fs_submission_id, ...fresh } = toNewRow(event);
    const created: StoredRow = { ...fresh, updated_at: updated_at ?? fresh.created_at, fs_submission_id: fs_submission_id ?? null };
    rows.set(id, created);
    return created;
  }
  if (shadowed.has(id) && isDelivery(event)) return undefined;
  shadowed.delete(id);
  if (!row) return undefined;
  const at = event.recordedAt.toISOString();
  if (isCreditMove(event)) {
    Object.assign(row, { version: Math.max(row.version, event.revision), updated_at: at, status: event.type === 'InvoiceVoided' ? 'voided' : row.status });
  } else if (event.type === 'InvoiceUpdated') {
    const d = event.data;
    Object.assign(row, {
      ...contentFields(d.content, d.totals), status: 'draft', updated_at: d.updated_at, version: event.revision,
      document: { content: d.content, totals: d.totals, warnings: d.warnings }, delivery: NO_DELIVERY, peppol_message_id: null, fs_submission_id: null,
    });
  } else if (event.type === 'InvoiceValidated') {
    Object.assign(row, { status: 'validated', updated_at: event.data.validated_at, version: event.revision });
  } else if (isApproval(event)) {
    const approval = event;
    // a void follows the change that voided it, which made the invoice a draft already
    const [status, updated] = approval.type === 'InvoiceApprovalRequested' ? ['pending_approval', approval.data.requested_at]
      : approval.type === 'InvoiceApproved' ? ['approved', approval.data.reviewed_at]
        : approval.type === 'InvoiceApprovalVoided' ? [row.status, approval.data.voided_at] : ['draft', approval.data.reviewed_at];
    Object.assign(row, { status, updated_at: updated, version: event.revision });
  } else {
    const delivery = evolveDelivery(row.delivery ?? NO_DELIVERY, event);
    Object.assign(row, {
      delivery, status: row.status === 'voided' ? 'voided' : (deliveryStatus(delivery) ?? row.status),
      peppol_message_id: delivery.peppol.message_id, fs_submission_id: fsMessageOf(delivery), updated_at: at, version: event.revision,
    });
  }
  return row;
}
