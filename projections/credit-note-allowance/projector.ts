import { creditNoteEntryChange, evolveCreditNotes, type CreditNoteEntry } from '../../commands/invoices/state.ts';
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector, type NewRows } from '../../src/platform/readmodel/projector.ts';
import { InvoiceCreditNotes1764200000100 } from './migration.ts';
import { CREDIT_NOTE_ALLOWANCE } from './queries.ts';

const CREDIT_NOTE_EVENT_TYPES: readonly CreditNoteEvent['type'][] = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'];

/** What one batch does to one invoice's row. */
interface Change {
  invoice_id: string;
  /** the stream revision of its last event in the batch */
  version: number;
  voided: boolean;
  /** entries reserved in the batch, folded to the batch's end */
  credit_notes: CreditNoteEntry[];
  /** by credit note id: the fields the batch sets on entries the row already holds (creditNoteEntryChange, merged in order) */
  changes: Record<string, Partial<CreditNoteEntry>>;
}

/**
 * The batch's changes, one per invoice. An entry reserved in the batch is folded here with the
 * decider's own evolveCreditNotes; an entry the row already holds receives its events' field
 * changes, which compose by merging (commands/invoices/state.ts), so SQL applies them with `||`.
 */
function changesOf(events: readonly Recorded<CreditNoteEvent>[]): Change[] {
  const byInvoice = new Map<string, Change>();
  for (const event of events) {
    const id = event.data.invoice_id;
    const row = byInvoice.get(id) ?? { invoice_id: id, version: 0, voided: false, credit_notes: [], changes: {} };
    row.version = event.revision;
    row.voided ||= event.type === 'InvoiceVoided';
    row.credit_notes = evolveCreditNotes(row.credit_notes, event);
    const change = creditNoteEntryChange(event);
    if (change) row.changes[change.credit_note_id] = { ...row.changes[change.credit_note_id], ...change.fields };
    byInvoice.set(id, row);
  }
  return [...byInvoice.values()];
}

// The stored row (read by its key: a join with a row set of unknown size may let the planner scan
// the table) with the changes merged into its entries in order, then the batch's new entries.
// Only the projection runner writes this table, after moving its checkpoint in the same statement.
const writeChanges = (source: string) =>
  `INSERT INTO invoice_credit_notes (invoice_id, version, voided, credit_notes)
   SELECT r.invoice_id, r.version, r.voided OR coalesce(t.voided, false),
     coalesce((SELECT jsonb_agg(e.entry || coalesce(r.changes -> (e.entry ->> 'credit_note_id'), '{}'::jsonb) ORDER BY e.ord)
               FROM jsonb_array_elements(t.credit_notes) WITH ORDINALITY AS e(entry, ord)), '[]'::jsonb) || r.credit_notes
   FROM jsonb_to_recordset(${source}) AS r(invoice_id uuid, version int, voided boolean, credit_notes jsonb, changes jsonb)
   LEFT JOIN LATERAL (SELECT voided, credit_notes FROM invoice_credit_notes WHERE invoice_credit_notes.invoice_id = r.invoice_id OFFSET 0) AS t ON true
   ON CONFLICT (invoice_id) DO UPDATE SET version = EXCLUDED.version, voided = EXCLUDED.voided, credit_notes = EXCLUDED.credit_notes`;

/**
 * The credit notes of each invoice, folded with the decider's own function; the allowance is
 * computed from them and the invoice register's row when it is read (queries.ts), so creates,
 * which have none, cost nothing here. A batch is one statement (newRows): the runner writes it
 * together with its checkpoint.
 */
export const creditNoteAllowance = defineProjector<CreditNoteEvent>({
  name: CREDIT_NOTE_ALLOWANCE,
  handles: CREDIT_NOTE_EVENT_TYPES,
  tables: ['invoice_credit_notes'],
  migrations: [InvoiceCreditNotes1764200000100],

  async apply(events, tx) {
    await tx.query(writeChanges('$1::jsonb'), [JSON.stringify(changesOf(events))]);
  },

  newRows: (events): NewRows => ({ rows: changesOf(events), insert: writeChanges }),
});
