import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from '../../commands/invoices/delivery.ts';
import type { CreditNoteCreated } from '../../events/credit-notes.ts';
import { APPROVAL_EVENT_TYPES, type ApprovalEvent } from '../../events/approvals.ts';
import { DELIVERY_EVENT_TYPES, type DeliveryEvent, type InvoiceReceived } from '../../events/delivery.ts';
import { domainEvent } from '../../src/handling/read-and-fold.ts';
import type { InvoiceCreated, InvoiceUpdated, InvoiceValidated } from '../../events/invoices.ts';
import { eventData, type Projector } from '../../src/readmodel/projector.ts';
import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../src/eventstore/port.ts';
import { INVOICE_REGISTER } from './queries.ts';
import { contentFields, createdRow, creditNoteRow, newRow, type InvoiceDocument, type NewRow } from './rows.ts';
import { InvoiceDelivery1763900000000 } from './delivery-migration.ts';
import { Invoices1763800002000 } from './migration.ts';
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

const isNewInvoice = (type: string) => type === 'InvoiceCreated' || type === 'InvoiceReceived' || type === 'CreditNoteCreated';

/** What credit notes record on the invoice they credit: each moves its version (the next If-Match); a void also its status. */
const CREDIT_NOTE_EVENT_TYPES = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'];

/**
 * A delivery event moves the legs the same way the decider does (one pure function), and the
 * status follows from them. Read-modify-write per event: these come one or two per invoice.
 */
async function applyDelivery(event: RecordedEvent, tx: EntityManager): Promise<void> {
  const d = event.data as { invoice_id: string };
  const rows: { delivery: Delivery | null; status: string }[] = await tx.query('SELECT delivery, status FROM invoices WHERE id = $1', [d.invoice_id]);
  const row = rows[0];
  if (!row) return;
  const delivery = evolveDelivery(row.delivery ?? NO_DELIVERY, domainEvent<DeliveryEvent>(event));
  // a voided invoice stays voided whatever its legs report later (as the decider's fold keeps it)
  const status = row.status === 'voided' ? 'voided' : (deliveryStatus(delivery) ?? row.status);
  await tx.query(
    `UPDATE invoices SET delivery = $2, status = $3, peppol_message_id = $4, fs_submission_id = $5, updated_at = $6, version = $7 WHERE id = $1`,
    [d.invoice_id, delivery, status, delivery.peppol.message_id, delivery.fs.submission_id, event.recordedAt, event.revision],
  );
}

/** Invoice list and detail: slim columns to filter and sort on, the whole document beside them. */
export const invoiceRegister: Projector = {
  name: INVOICE_REGISTER,
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated', 'InvoiceReceived', 'CreditNoteCreated', ...DELIVERY_EVENT_TYPES, ...CREDIT_NOTE_EVENT_TYPES, ...APPROVAL_EVENT_TYPES],
  tables: ['invoices'],
  migrations: [Invoices1763800002000, InvoiceDelivery1763900000000, InvoicesUnboundedColumns1764100000100],

  async apply(events, tx) {
    const { rows, rest } = withDeliveryFolded(events);
    for (const step of steps(rest, rows)) {
      if ('rows' in step) await tx.query(writeRows('$1::jsonb'), [JSON.stringify(step.rows)]);
      else await applyOne(step.event, tx);
    }
  },

  // the common batches while following: creates (and receipts) with their first delivery steps,
  // and the credit notes' moves of the invoices they credit (a credit note writes both at once)
  newRows: (events) => {
    const { rows, rest } = withDeliveryFolded(events);
    const [only, ...more] = steps(rest, rows);
    return only && 'rows' in only && more.length === 0 ? { rows: only.rows, insert: writeRows } : null;
  },
};

/** What credit notes record on an invoice they credit, a run of them at once: the version moves to the last of its events, a void also sets the status. */
interface CreditRow { id: string; version: number; updated_at: string; voided: boolean; credit: true }

/** One statement's rows (writeRows), or one event applied alone. */
type Step = { rows: (NewRow | CreditRow)[] } | { event: RecordedEvent };

/**
 * The batch as statements, keeping each row's own order (rows are independent of each other):
 * new rows and credit moves gather in one window, written with one statement, until an event
 * touches a row already in it in a way the statement cannot keep in order (a second new row of
 * the same id, a credit to a row new in it, or any other change): then the window is written
 * first. Any other change of a row not in the window is applied at once, ahead of it. So a batch
 * of credit notes (each a new row and its invoice's moves) costs one statement, not two per note.
 */
function steps(events: readonly RecordedEvent[], folded: ReadonlyMap<RecordedEvent, NewRow>): Step[] {
  const out: Step[] = [];
  let window = new Map<string, NewRow | CreditRow>();
  const flush = () => {
    if (window.size > 0) out.push({ rows: [...window.values()] });
    window = new Map();
  };
  for (const event of events) {
    if (isNewInvoice(event.type)) {
      const row = folded.get(event) ?? toNewRow(event);
      if (window.has(row.id)) flush();
      window.set(row.id, row);
      continue;
    }
    const id = (event.data as { invoice_id: string }).invoice_id;
    const seen = window.get(id);
    if (!CREDIT_NOTE_EVENT_TYPES.includes(event.type)) {
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

function creditRow(seen: CreditRow | undefined, event: RecordedEvent): CreditRow {
  return {
    id: (event.data as { invoice_id: string }).invoice_id, version: Math.max(seen?.version ?? -1, event.revision),
    updated_at: event.recordedAt.toISOString(), voided: (seen?.voided ?? false) || event.type === 'InvoiceVoided', credit: true,
  };
}

/**
 * A document and its first delivery steps often arrive in one batch (a credit note is created
 * queued or delivered in one write; a rebuild replays whole streams): those steps are folded into
 * the new row before it is inserted, exactly as applyDelivery would apply them after, instead of a
 * read and an update each. Folding stops at the first other event of that document, so order holds.
 */
function withDeliveryFolded(events: readonly RecordedEvent[]): { rows: Map<RecordedEvent, NewRow>; rest: RecordedEvent[] } {
  const rows = new Map<RecordedEvent, NewRow>();
  const open = new Map<string, NewRow>();
  const rest: RecordedEvent[] = [];
  for (const event of events) {
    if (isNewInvoice(event.type)) {
      const row = toNewRow(event);
      rows.set(event, row);
      open.set(row.id, row);
      rest.push(event);
      continue;
    }
    const id = (event.data as { invoice_id?: string }).invoice_id;
    const row = id === undefined ? undefined : open.get(id);
    if (row && (DELIVERY_EVENT_TYPES as readonly string[]).includes(event.type)) {
      const delivery = evolveDelivery(row.delivery, domainEvent<DeliveryEvent>(event));
      Object.assign(row, {
        delivery, status: deliveryStatus(delivery) ?? row.status, peppol_message_id: delivery.peppol.message_id, fs_submission_id: delivery.fs.submission_id,
        version: event.revision, updated_at: event.recordedAt.toISOString(),
      });
      continue;
    }
    if (id !== undefined) open.delete(id);
    rest.push(event);
  }
  return { rows, rest };
}

function toNewRow(event: RecordedEvent): NewRow {
  if (event.type === 'InvoiceCreated') return createdRow(eventData<InvoiceCreated>(event), event.revision);
  if (event.type === 'CreditNoteCreated') return creditNoteRow(eventData<CreditNoteCreated>(event), event.revision);
  const d = eventData<InvoiceReceived>(event);
  const delivery = evolveDelivery(NO_DELIVERY, domainEvent<InvoiceReceived>(event));
  return newRow(d.content, d.totals, {
    id: d.invoice_id, organisation_id: d.organisation_id, company_id: d.company_id, workspace_id: d.workspace_id,
    status: deliveryStatus(delivery) ?? 'delivered', created_by: d.sender_participant_id, created_at: d.received_at, version: event.revision,
    document: { content: d.content, totals: d.totals, warnings: [] }, source: 'peppol', peppol_message_id: d.peppol_message_id, delivery,
  });
}

/** Changes to an existing row, event by event (a PUT, a validation, a delivery step). */
async function applyOne(event: RecordedEvent, tx: EntityManager): Promise<void> {
  if (event.type === 'InvoiceUpdated') {
    const d = eventData<InvoiceUpdated>(event);
    const document: InvoiceDocument = { content: d.content, totals: d.totals, warnings: d.warnings };
    const c = contentFields(d.content, d.totals);
    await tx.query(
      `UPDATE invoices SET invoice_number = $1, invoice_type = $2, issue_date = $3, due_date = $4, currency_code = $5,
         supplier_name = $6, buyer_name = $7, buyer_vat_id = $8, customer_id = $9, total_net = $10, total_vat = $11,
         total_gross = $12, search = $13, status = 'draft', updated_at = $15, version = $16, document = $17,
         delivery = $18, peppol_message_id = NULL, fs_submission_id = NULL
       WHERE id = $14`,
      [c.invoice_number, c.invoice_type, c.issue_date, c.due_date, c.currency_code, c.supplier_name, c.buyer_name, c.buyer_vat_id, c.customer_id,
        c.total_net, c.total_vat, c.total_gross, c.search, d.invoice_id, d.updated_at, event.revision, document, NO_DELIVERY],
    );
  } else if (event.type === 'InvoiceValidated') {
    const d = eventData<InvoiceValidated>(event);
    await tx.query(`UPDATE invoices SET status = 'validated', updated_at = $2, version = $3 WHERE id = $1`, [d.invoice_id, d.validated_at, event.revision]);
  } else if ((APPROVAL_EVENT_TYPES as readonly string[]).includes(event.type)) {
    await applyApproval(domainEvent<ApprovalEvent>(event), event, tx);
  } else {
    await applyDelivery(event, tx);
  }
}

/** An approval moves only the status (as evolveInvoice does): requested → pending_approval, approved → approved, rejected → draft. */
async function applyApproval(event: ApprovalEvent, recorded: RecordedEvent, tx: EntityManager): Promise<void> {
  const [status, at] = event.type === 'InvoiceApprovalRequested' ? ['pending_approval', event.data.requested_at]
    : event.type === 'InvoiceApproved' ? ['approved', event.data.reviewed_at] : ['draft', event.data.reviewed_at];
  await tx.query('UPDATE invoices SET status = $2, updated_at = $3, version = $4 WHERE id = $1', [event.data.invoice_id, status, at, recorded.revision]);
}
