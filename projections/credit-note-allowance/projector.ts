import { evolveCreditNotes, type CreditNoteEntry } from '../../commands/invoices/state.ts';
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import { domainEvent } from '../../src/handling/read-and-fold.ts';
import type { Projector } from '../../src/readmodel/projector.ts';
import { InvoiceCreditNotes1764200000100 } from './migration.ts';
import { CREDIT_NOTE_ALLOWANCE } from './queries.ts';

const CREDIT_NOTE_EVENT_TYPES: readonly CreditNoteEvent['type'][] = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'];

interface Row {
  invoice_id: string;
  version: number;
  voided: boolean;
  credit_notes: CreditNoteEntry[];
}

/**
 * The credit notes of each invoice, folded with the decider's own function; the allowance is
 * computed from them and the invoice register's row when it is read (queries.ts), so creates,
 * which have none, cost nothing here.
 */
export const creditNoteAllowance: Projector = {
  name: CREDIT_NOTE_ALLOWANCE,
  handles: CREDIT_NOTE_EVENT_TYPES,
  tables: ['invoice_credit_notes'],
  migrations: [InvoiceCreditNotes1764200000100],

  async apply(events, tx) {
    // every invoice of the batch read at once
    const ids = [...new Set(events.map((e) => (e.data as { invoice_id: string }).invoice_id))];
    const stored: Row[] = await tx.query('SELECT invoice_id, version, voided, credit_notes FROM invoice_credit_notes WHERE invoice_id = ANY($1::uuid[])', [ids]);
    const rows = new Map<string, Row>(stored.map((r) => [r.invoice_id, r]));
    for (const recorded of events) {
      const event = domainEvent<CreditNoteEvent>(recorded);
      const id = event.data.invoice_id;
      const row = rows.get(id) ?? { invoice_id: id, version: 0, voided: false, credit_notes: [] };
      rows.set(id, { invoice_id: id, version: recorded.revision, voided: row.voided || event.type === 'InvoiceVoided', credit_notes: evolveCreditNotes(row.credit_notes, event) });
    }
    await tx.query(
      `INSERT INTO invoice_credit_notes (invoice_id, version, voided, credit_notes)
       SELECT r.invoice_id, r.version, r.voided, r.credit_notes FROM jsonb_to_recordset($1::jsonb) AS r(invoice_id uuid, version int, voided boolean, credit_notes jsonb)
       ON CONFLICT (invoice_id) DO UPDATE SET version = EXCLUDED.version, voided = EXCLUDED.voided, credit_notes = EXCLUDED.credit_notes`,
      [JSON.stringify([...rows.values()])],
    );
  },
};
