import type { EntityManager } from 'typeorm';
import { invoiceAllowance } from '../../commands/credit-notes/decider.ts';
import { evolveInvoice, initialInvoiceState, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../../commands/invoices/state.ts';
import { DELIVERY_EVENT_TYPES } from '../../events/delivery.ts';
import type { RecordedEvent } from '../../src/eventstore/port.ts';
import { domainEvent } from '../../src/handling/read-and-fold.ts';
import type { Projector } from '../../src/readmodel/projector.ts';
import { CreditNoteAllowances1764200000000 } from './migration.ts';
import { CREDIT_NOTE_ALLOWANCE } from './queries.ts';

const CREDIT_NOTE_EVENT_TYPES = ['CreditNoteReserved', 'CreditNoteCounted', 'CreditNoteIssued', 'CreditNoteReleased', 'InvoiceVoided'] as const;

interface Row {
  invoice_id: string;
  organisation_id: string;
  company_id: string;
  version: number;
  state: KnownInvoice;
  allowance: ReturnType<typeof invoiceAllowance>;
}

const rowOf = (state: KnownInvoice, version: number): Row => ({
  // an inbound copy's UBL is kept by the invoice register; it is never creditable here
  invoice_id: state.invoice_id, organisation_id: state.organisation_id, company_id: state.company_id, version, state: { ...state, received_ubl: null }, allowance: invoiceAllowance(state),
});

const upsert = (source: string) =>
  `INSERT INTO credit_note_allowances (invoice_id, organisation_id, company_id, version, state, allowance)
   SELECT r.invoice_id, r.organisation_id, r.company_id, r.version, r.state, r.allowance
   FROM jsonb_to_recordset(${source}) AS r(invoice_id uuid, organisation_id uuid, company_id uuid, version int, state jsonb, allowance jsonb)
   ON CONFLICT (invoice_id) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, allowance = EXCLUDED.allowance`;

const isNewInvoice = (type: string) => type === 'InvoiceCreated' || type === 'InvoiceReceived';
const invoiceIdOf = (event: RecordedEvent) => (event.data as { invoice_id: string }).invoice_id;

/**
 * What each invoice has left to credit (GET …/credit-notes/allowance): the invoice's stream folded
 * with the decider's own evolve, and the allowance computed by the decider's own function, so the
 * read model shows exactly what a credit note would be checked against. It never decides.
 */
export const creditNoteAllowance: Projector = {
  name: CREDIT_NOTE_ALLOWANCE,
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated', 'InvoiceReceived', ...DELIVERY_EVENT_TYPES, ...CREDIT_NOTE_EVENT_TYPES],
  tables: ['credit_note_allowances'],
  migrations: [CreditNoteAllowances1764200000000],

  async apply(events, tx) {
    // the batch folded per invoice in order, starting from each invoice's stored state: one read and one write per invoice
    const states = new Map<string, { state: InvoiceState; version: number }>();
    for (const event of events) {
      const id = invoiceIdOf(event);
      const current = states.get(id) ?? { state: isNewInvoice(event.type) ? initialInvoiceState : await stored(tx, id), version: 0 };
      states.set(id, { state: evolveInvoice(current.state, domainEvent<InvoiceStreamEvent>(event)), version: event.revision });
    }
    const rows = [...states.values()].flatMap(({ state, version }) => (state.status === 'none' ? [] : [rowOf(state, version)]));
    if (rows.length > 0) await tx.query(upsert('$1::jsonb'), [JSON.stringify(rows)]);
  },

  // the common batch while following: new invoices only, each from its first event
  newRows: (events) =>
    events.every((e) => isNewInvoice(e.type))
      ? { rows: events.flatMap((e) => { const s = evolveInvoice(initialInvoiceState, domainEvent<InvoiceStreamEvent>(e)); return s.status === 'none' ? [] : [rowOf(s, e.revision)]; }), insert: upsert }
      : null,
};

async function stored(tx: EntityManager, invoiceId: string): Promise<InvoiceState> {
  const rows: { state: KnownInvoice }[] = await tx.query('SELECT state FROM credit_note_allowances WHERE invoice_id = $1', [invoiceId]);
  return rows[0]?.state ?? initialInvoiceState;
}
