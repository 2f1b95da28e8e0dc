import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from '../../commands/invoices/delivery.ts';
import type { InvoiceContent, InvoiceTotals, RuleFinding } from '../../commands/invoices/model.ts';
import { DELIVERY_EVENT_TYPES, type DeliveryEvent, type InvoiceReceived } from '../../events/delivery.ts';
import type { InvoiceCreated, InvoiceUpdated, InvoiceValidated } from '../../events/invoices.ts';
import { eventData, type Projector } from '../../src/readmodel/projector.ts';
import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../src/eventstore/port.ts';
import { foldText } from '../shared/fold.ts';
import { InvoiceDelivery1763900000000 } from './delivery-migration.ts';
import { Invoices1763800002000 } from './migration.ts';

/** What the detail read returns besides the columns: the content and totals as decided. */
export interface InvoiceDocument {
  content: InvoiceContent;
  totals: InvoiceTotals;
  warnings: RuleFinding[];
}

const searchText = (c: InvoiceContent) => foldText(`${c.invoice_number} ${c.supplier.name} ${c.buyer.name}`);

/** Columns that follow the content (set on create and on every update). */
function contentColumns(content: InvoiceContent, totals: InvoiceTotals) {
  return [
    content.invoice_number, content.invoice_type, content.issue_date, content.due_date, content.currency_code,
    content.supplier.name, content.buyer.name, content.buyer.vat_id, content.customer_id,
    totals.total_net, totals.total_vat, totals.total_gross, searchText(content),
  ];
}

const INSERT = `INSERT INTO invoices (invoice_number, invoice_type, issue_date, due_date, currency_code, supplier_name, buyer_name,
    buyer_vat_id, customer_id, total_net, total_vat, total_gross, search,
    id, organisation_id, company_id, workspace_id, status, created_by, created_at, updated_at, version, document,
    source, peppol_message_id, delivery)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20, $21, $22, $23, $24, $25)
  ON CONFLICT (id) DO NOTHING`;

/**
 * A delivery event moves the legs the same way the decider does (one pure function), and the
 * status follows from them. Read-modify-write per event: these come one or two per invoice.
 */
async function applyDelivery(event: RecordedEvent, tx: EntityManager): Promise<void> {
  const d = event.data as { invoice_id: string };
  const rows: { delivery: Delivery | null; status: string }[] = await tx.query('SELECT delivery, status FROM invoices WHERE id = $1', [d.invoice_id]);
  const row = rows[0];
  if (!row) return;
  const delivery = evolveDelivery(row.delivery ?? NO_DELIVERY, event as unknown as DeliveryEvent);
  await tx.query(
    `UPDATE invoices SET delivery = $2, status = $3, peppol_message_id = $4, fs_submission_id = $5, updated_at = $6, version = $7 WHERE id = $1`,
    [d.invoice_id, delivery, deliveryStatus(delivery) ?? row.status, delivery.peppol.message_id, delivery.fs.submission_id, event.recordedAt, event.revision],
  );
}

/** Invoice list and detail: slim columns to filter and sort on, the whole document beside them. */
export const invoiceRegister: Projector = {
  name: 'invoices',
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated', 'InvoiceReceived', ...DELIVERY_EVENT_TYPES],
  tables: ['invoices'],
  migrations: [Invoices1763800002000, InvoiceDelivery1763900000000],

  async apply(events, tx) {
    for (const event of events) {
      if (event.type === 'InvoiceCreated') {
        const d = eventData<InvoiceCreated>(event);
        const document: InvoiceDocument = { content: d.content, totals: d.totals, warnings: d.warnings };
        await tx.query(INSERT, [
          ...contentColumns(d.content, d.totals), d.invoice_id, d.organisation_id, d.company_id, d.workspace_id, 'draft', d.created_by,
          d.created_at, event.revision, document, 'api', null, NO_DELIVERY,
        ]);
      } else if (event.type === 'InvoiceReceived') {
        const d = eventData<InvoiceReceived>(event);
        const document: InvoiceDocument = { content: d.content, totals: d.totals, warnings: [] };
        const delivery = evolveDelivery(NO_DELIVERY, event as unknown as InvoiceReceived);
        await tx.query(INSERT, [
          ...contentColumns(d.content, d.totals), d.invoice_id, d.organisation_id, d.company_id, d.workspace_id, deliveryStatus(delivery),
          d.sender_participant_id, d.received_at, event.revision, document, 'peppol', d.peppol_message_id, delivery,
        ]);
      } else if (event.type === 'InvoiceUpdated') {
        const d = eventData<InvoiceUpdated>(event);
        const document: InvoiceDocument = { content: d.content, totals: d.totals, warnings: d.warnings };
        await tx.query(
          `UPDATE invoices SET invoice_number = $1, invoice_type = $2, issue_date = $3, due_date = $4, currency_code = $5,
             supplier_name = $6, buyer_name = $7, buyer_vat_id = $8, customer_id = $9, total_net = $10, total_vat = $11,
             total_gross = $12, search = $13, status = 'draft', updated_at = $15, version = $16, document = $17,
             delivery = $18, peppol_message_id = NULL, fs_submission_id = NULL
           WHERE id = $14`,
          [...contentColumns(d.content, d.totals), d.invoice_id, d.updated_at, event.revision, document, NO_DELIVERY],
        );
      } else if (event.type === 'InvoiceValidated') {
        const d = eventData<InvoiceValidated>(event);
        await tx.query(`UPDATE invoices SET status = 'validated', updated_at = $2, version = $3 WHERE id = $1`, [
          d.invoice_id, d.validated_at, event.revision,
        ]);
      } else {
        await applyDelivery(event, tx);
      }
    }
  },
};
