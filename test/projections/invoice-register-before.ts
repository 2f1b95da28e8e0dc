// The invoice register projector as it was before batches were written set-based (commit 391a492),
// kept only as the reference invoice-register-batches.test.ts compares the current one with.
import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from '../../commands/invoices/delivery.ts';
import type { CreditNoteCreated } from '../../events/credit-notes.ts';
import { APPROVAL_EVENT_TYPES, type ApprovalEvent } from '../../events/approvals.ts';
import { DELIVERY_EVENT_TYPES, type DeliveryEvent, type InvoiceReceived } from '../../events/delivery.ts';
import { domainEvent } from '../../src/platform/handling/read-and-fold.ts';
import type { InvoiceCreated, InvoiceUpdated, InvoiceValidated } from '../../events/invoices.ts';
import { eventData, runsOfType, type Projector } from '../../src/platform/readmodel/projector.ts';
import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { INVOICE_REGISTER } from '../../projections/invoices/queries.ts';
import { contentFields, createdRow, creditNoteRow, newRow, type InvoiceDocument, type NewRow } from '../../projections/invoices/rows.ts';
import { InvoiceDelivery1763900000000 } from '../../projections/invoices/delivery-migration.ts';
import { Invoices1763800002000 } from '../../projections/invoices/migration.ts';
import { InvoicesUnboundedColumns1764100000100 } from '../../projections/invoices/unbounded-columns-migration.ts';

/** New invoices in one statement, rows read from `jsonb_to_recordset(source)`: a run costs a statement, not one per invoice. */
const insertInvoices = (source: string) =>
  `INSERT INTO invoices (id, organisation_id, company_id, workspace_id, invoice_number, invoice_type, status, issue_date, due_date,
     currency_code, supplier_name, buyer_name, buyer_vat_id, customer_id, total_net, total_vat, total_gross, search, created_by,
     created_at, updated_at, version, document, source, peppol_message_id, fs_submission_id, delivery)
   SELECT r.id, r.organisation_id, r.company_id, r.workspace_id, r.invoice_number, r.invoice_type, r.status, r.issue_date, r.due_date,
     r.currency_code, r.supplier_name, r.buyer_name, r.buyer_vat_id, r.customer_id, r.total_net, r.total_vat, r.total_gross, r.search,
     r.created_by, r.created_at, COALESCE(r.updated_at, r.created_at), r.version, r.document, r.source, r.peppol_message_id, r.fs_submission_id, r.delivery
   FROM jsonb_to_recordset(${source}) AS r(id uuid, organisation_id uuid, company_id uuid, workspace_id uuid, invoice_number text,
     invoice_type text, status text, issue_date date, due_date date, currency_code text, supplier_name text, buyer_name text,
     buyer_vat_id text, customer_id uuid, total_net numeric, total_vat numeric, total_gross numeric, search text, created_by text,
     created_at timestamptz, updated_at timestamptz, version int, document jsonb, source text, peppol_message_id text,
     fs_submission_id text, delivery jsonb)
   ON CONFLICT (id) DO NOTHING`;

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
export const invoiceRegisterBefore: Projector = {
  name: INVOICE_REGISTER,
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated', 'InvoiceReceived', 'CreditNoteCreated', ...DELIVERY_EVENT_TYPES, ...CREDIT_NOTE_EVENT_TYPES, ...APPROVAL_EVENT_TYPES],
  tables: ['invoices'],
  migrations: [Invoices1763800002000, InvoiceDelivery1763900000000, InvoicesUnboundedColumns1764100000100],

  async apply(events, tx) {
    const { rows, rest } = withDeliveryFolded(events);
    for (const run of runsOfType(rest, (type) => (CREDIT_NOTE_EVENT_TYPES.includes(type) ? 'credit' : type))) {
      if (isNewInvoice(run.type)) {
        await tx.query(insertInvoices('$1::jsonb'), [JSON.stringify(run.events.map((e) => rows.get(e) ?? toNewRow(e)))]);
      } else if (run.type === 'credit') {
        await applyCredits(run.events, tx);
      } else {
        for (const event of run.events) await applyOne(event, tx);
      }
    }
  },

  // the common batch while following: only creates (and receipts), no edits
  newRows: (events) => (events.every((e) => isNewInvoice(e.type)) ? { rows: events.map(toNewRow), insert: insertInvoices } : null),
};

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

/**
 * What credit notes record on the invoices they credit, a run of them at once: each invoice's
 * version moves to the last of its events (a void also sets its status). One statement per
 * invoice in the run, not per event: a credit note writes two or three of these at once.
 */
async function applyCredits(events: readonly RecordedEvent[], tx: EntityManager): Promise<void> {
  const byInvoice = new Map<string, { id: string; version: number; at: Date; voided: boolean }>();
  for (const event of events) {
    const id = (event.data as { invoice_id: string }).invoice_id;
    const seen = byInvoice.get(id);
    byInvoice.set(id, { id, version: Math.max(seen?.version ?? -1, event.revision), at: event.recordedAt, voided: (seen?.voided ?? false) || event.type === 'InvoiceVoided' });
  }
  // one statement per invoice, by its key: a join with a row set lets the planner scan the table
  for (const u of byInvoice.values()) {
    await tx.query(
      `UPDATE invoices SET version = GREATEST(version, $2), updated_at = $3${u.voided ? ", status = 'voided'" : ''} WHERE id = $1`,
      [u.id, u.version, u.at],
    );
  }
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

/** An approval moves only the status (as evolveInvoice does): requested → pending_approval, approved → approved, rejected → draft; a void keeps it. */
async function applyApproval(event: ApprovalEvent, recorded: RecordedEvent, tx: EntityManager): Promise<void> {
  if (event.type === 'InvoiceApprovalVoided') {
    await tx.query('UPDATE invoices SET updated_at = $2, version = $3 WHERE id = $1', [event.data.invoice_id, event.data.voided_at, recorded.revision]);
    return;
  }
  const [status, at] = event.type === 'InvoiceApprovalRequested' ? ['pending_approval', event.data.requested_at]
    : event.type === 'InvoiceApproved' ? ['approved', event.data.reviewed_at] : ['draft', event.data.reviewed_at];
  await tx.query('UPDATE invoices SET status = $2, updated_at = $3, version = $4 WHERE id = $1', [event.data.invoice_id, status, at, recorded.revision]);
}
