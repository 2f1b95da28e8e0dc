import type { InvoiceContent, InvoiceTotals, RuleFinding } from '../../commands/invoices/model.ts';
import type { InvoiceCreated, InvoiceUpdated, InvoiceValidated } from '../../events/invoices.ts';
import { eventData, type Projector } from '../../src/readmodel/projector.ts';
import { foldText } from '../shared/fold.ts';
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

/** Invoice list and detail: slim columns to filter and sort on, the whole document beside them. */
export const invoiceRegister: Projector = {
  name: 'invoices',
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated'],
  tables: ['invoices'],
  migrations: [Invoices1763800002000],

  async apply(events, tx) {
    for (const event of events) {
      if (event.type === 'InvoiceCreated') {
        const d = eventData<InvoiceCreated>(event);
        const document: InvoiceDocument = { content: d.content, totals: d.totals, warnings: d.warnings };
        await tx.query(
          `INSERT INTO invoices (invoice_number, invoice_type, issue_date, due_date, currency_code, supplier_name, buyer_name,
             buyer_vat_id, customer_id, total_net, total_vat, total_gross, search,
             id, organisation_id, company_id, workspace_id, status, created_by, created_at, updated_at, version, document)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 'draft', $18, $19, $19, $20, $21)
           ON CONFLICT (id) DO NOTHING`,
          [...contentColumns(d.content, d.totals), d.invoice_id, d.organisation_id, d.company_id, d.workspace_id, d.created_by, d.created_at, event.revision, document],
        );
      } else if (event.type === 'InvoiceUpdated') {
        const d = eventData<InvoiceUpdated>(event);
        const document: InvoiceDocument = { content: d.content, totals: d.totals, warnings: d.warnings };
        await tx.query(
          `UPDATE invoices SET invoice_number = $1, invoice_type = $2, issue_date = $3, due_date = $4, currency_code = $5,
             supplier_name = $6, buyer_name = $7, buyer_vat_id = $8, customer_id = $9, total_net = $10, total_vat = $11,
             total_gross = $12, search = $13, status = 'draft', updated_at = $15, version = $16, document = $17
           WHERE id = $14`,
          [...contentColumns(d.content, d.totals), d.invoice_id, d.updated_at, event.revision, document],
        );
      } else if (event.type === 'InvoiceValidated') {
        const d = eventData<InvoiceValidated>(event);
        await tx.query(`UPDATE invoices SET status = 'validated', updated_at = $2, version = $3 WHERE id = $1`, [
          d.invoice_id, d.validated_at, event.revision,
        ]);
      }
    }
  },
};
