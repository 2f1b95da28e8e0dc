import { evolveApproval, type ApprovalRecord } from '../../commands/approvals/approval.ts';
import { APPROVAL_EVENT_TYPES, type ApprovalEvent } from '../../events/approvals.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { InvoiceApprovals1764300000100 } from './migration.ts';
import { INVOICE_APPROVALS } from './queries.ts';

interface Row {
  invoice_id: string;
  version: number;
  approval: ApprovalRecord;
}

/** The approval record of each invoice that ever asked for one, folded with the decider's own function. */
export const invoiceApprovals = defineProjector<ApprovalEvent>({
  name: INVOICE_APPROVALS,
  handles: APPROVAL_EVENT_TYPES,
  tables: ['invoice_approvals'],
  migrations: [InvoiceApprovals1764300000100],

  async apply(events, tx) {
    const rows = new Map<string, Row>();
    // the batch's invoices read at once, not one read per invoice
    const ids = [...new Set(events.map((e) => e.data.invoice_id))];
    const stored = new Map((await tx.query('SELECT invoice_id::text AS invoice_id, approval FROM invoice_approvals WHERE invoice_id = ANY($1::uuid[])', [ids]) as Row[])
      .map((r) => [r.invoice_id, r.approval]));
    for (const event of events) {
      const id = event.data.invoice_id;
      const approval = evolveApproval(rows.get(id)?.approval ?? stored.get(id) ?? null, event);
      if (approval) rows.set(id, { invoice_id: id, version: event.revision, approval });
    }
    await tx.query(
      `INSERT INTO invoice_approvals (invoice_id, version, approval)
       SELECT r.invoice_id, r.version, r.approval FROM jsonb_to_recordset($1::jsonb) AS r(invoice_id uuid, version int, approval jsonb)
       ON CONFLICT (invoice_id) DO UPDATE SET version = EXCLUDED.version, approval = EXCLUDED.approval`,
      [JSON.stringify([...rows.values()])],
    );
  },
});
