// Property tests on the invoice's stream: generated invoices and random sequences of credit-note
// commands (all four reasons, counted or waiting, sent, issued, failed, rejected, discarded, in any
// order), decided by the real decider and folded with evolveInvoice. After every step: nothing is
// credited beyond what is left, every row's base + vat = gross, a refusal changes nothing, a
// counted full_reversal leaves zero with the counted rows summing to the invoice, an issued one
// voids it, and rule 10 holds. CREDIT_NOTE_PROPERTY_RUNS sets the runs (default 30, a few
// seconds); CREDIT_NOTE_PROPERTY_STATS prints what the runs did.
import { expect } from 'chai';
import fc from 'fast-check';
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import { Dec, ZERO } from '../invoices/money.ts';
import { evolveInvoice, type CreditNoteEntry, type KnownInvoice } from '../invoices/state.ts';
import { countingCreditNotes, invoiceAllowance, type CreditNoteCommand } from './decider.ts';
import type { Allowance } from './model.ts';
import { commandOf, decideOn, invoiceLinesArb, stepsArb } from './stream-arbitraries.ts';
import { issued } from './test-fixtures.ts';

const RUNS = Number(process.env.CREDIT_NOTE_PROPERTY_RUNS ?? 30);

/** The refusals the rules give on this stream; any other error is a bug. */
const REFUSALS = ['credit_limit_exceeded', 'not_creditable', 'invalid_status', 'credit_note_not_found'];

interface Stats {
  runs: number;
  steps: number;
  accepted: number;
  /** decided, but nothing to record (a repeat, an issue of a waiting one, a release of an issued one) */
  unchanged: number;
  refused: Record<string, number>;
  reserved: Record<string, number>;
  waiting: number;
  sent: number;
  issued: number;
  released: number;
  /** full reversals counted, and issued (each voiding its invoice) */
  reversalsCounted: number;
  reversalsIssued: number;
  /** full reversals refused by rule 10 */
  rule10: number;
}

describe('credit notes on the invoice stream, property-based (fast-check)', function () {
  this.timeout(600_000);

  it('random command sequences never credit beyond what is left; refusals change nothing; a full reversal credits the invoice exactly', () => {
    const stats: Stats = {
      runs: 0, steps: 0, accepted: 0, unchanged: 0, refused: {}, reserved: {}, waiting: 0, sent: 0, issued: 0, released: 0,
      reversalsCounted: 0, reversalsIssued: 0, rule10: 0,
    };
    fc.assert(
      fc.property(invoiceLinesArb, stepsArb(24), (lines, steps) => {
        stats.runs++;
        const start = issued(lines);
        let state = start;
        const stream: CreditNoteEvent[] = [];
        expectInvariants(state);
        steps.forEach((step, i) => {
          stats.steps++;
          const command = commandOf(step, state, i + 1);
          const before = JSON.stringify(state);
          const allowance = invoiceAllowance(state);
          const blocked = rule10Blocks(state, command);
          const outcome = decideOn(state, command);
          if ('refused' in outcome) {
            const { code } = outcome.refused;
            stats.refused[code] = (stats.refused[code] ?? 0) + 1;
            expect(REFUSALS, `refused with ${code}: ${outcome.refused.message}`).to.include(code);
            expectDeserved(state, allowance, command, code, blocked);
            if (blocked) stats.rule10++;
            // nothing recorded, nothing touched: the version and the allowance stay
            expect(JSON.stringify(state)).to.equal(before);
            expect(invoiceAllowance(state)).to.deep.equal(allowance);
            return;
          }
          expect(blocked, `rule 10: ${command.type} of a full_reversal went through while another credit note is queued`).to.equal(false);
          if (outcome.events.length === 0) {
            stats.unchanged++;
            expect(outcome.state).to.equal(state);
            return;
          }
          stats.accepted++;
          count(stats, state, outcome.events);
          stream.push(...outcome.events);
          state = outcome.state;
          expectInvariants(state);
          // an issued full_reversal voids the invoice in the same decision
          if (command.type === 'RecordCreditNoteIssued' && entry(state, command.credit_note_id).reason === 'full_reversal') {
            expect(outcome.events.map((e) => e.type)).to.deep.equal(['CreditNoteIssued', 'InvoiceVoided']);
          }
        });
        // the version is the stream's length, and folding the stream from the start gives the same state
        expect(stream.reduce(evolveInvoice, start)).to.deep.equal(state);
      }),
      { numRuns: RUNS },
    );
    if (process.env.CREDIT_NOTE_PROPERTY_STATS) console.log(JSON.stringify(stats));
    expect(stats.accepted).to.be.greaterThan(0);
  });
});

const entry = (invoice: KnownInvoice, id: string): CreditNoteEntry => {
  const found = invoice.credit_notes.find((c) => c.credit_note_id === id);
  if (!found) throw new Error(`no credit note ${id}`);
  return found;
};

/** Rule 10: whether the command counts a full_reversal while another credit note is queued (counted, neither issued nor released). */
function rule10Blocks(invoice: KnownInvoice, command: CreditNoteCommand): boolean {
  const queuedBesides = (id: string) => countingCreditNotes(invoice).some((c) => !c.issued && c.credit_note_id !== id);
  if (command.type === 'ReserveCreditNote') {
    const known = invoice.credit_notes.some((c) => c.credit_note_id === command.credit_note_id);
    return !known && command.counted && command.request.reason === 'full_reversal' && queuedBesides(command.credit_note_id);
  }
  if (command.type === 'CountCreditNote') {
    const e = invoice.credit_notes.find((c) => c.credit_note_id === command.credit_note_id);
    return !!e && e.reason === 'full_reversal' && !e.counted && !e.released && queuedBesides(e.credit_note_id);
  }
  return false;
}

/** A refusal is the rules': rule 10, an invoice that cannot be credited, rows that do not fit, a discarded or unknown credit note. */
function expectDeserved(invoice: KnownInvoice, allowance: Allowance, command: CreditNoteCommand, code: string, blocked: boolean): void {
  const known = 'credit_note_id' in command ? invoice.credit_notes.find((c) => c.credit_note_id === command.credit_note_id) : undefined;
  const why = `${command.type} refused with ${code}`;
  if (blocked) {
    expect(code, why).to.equal('not_creditable');
    return;
  }
  switch (code) {
    case 'not_creditable':
      expect(allowance.creditable, why).to.equal(false);
      break;
    case 'invalid_status':
      expect(command.type === 'CountCreditNote' && known?.released, why).to.equal(true);
      break;
    case 'credit_note_not_found':
      expect(command.type !== 'ReserveCreditNote' && !known, why).to.equal(true);
      break;
    case 'credit_limit_exceeded': {
      // a full reversal takes what is left: it never exceeds it
      const reason = command.type === 'ReserveCreditNote' ? command.request.reason : known?.reason;
      expect(reason, why).to.not.equal('full_reversal');
      break;
    }
  }
}

function count(stats: Stats, invoice: KnownInvoice, events: CreditNoteEvent[]): void {
  for (const event of events) {
    if (event.type === 'CreditNoteReserved') {
      stats.reserved[event.data.reason] = (stats.reserved[event.data.reason] ?? 0) + 1;
      if (!event.data.counted) stats.waiting++;
      if (event.data.counted && event.data.reason === 'full_reversal') stats.reversalsCounted++;
    }
    if (event.type === 'CreditNoteCounted') {
      stats.sent++;
      if (entry(invoice, event.data.credit_note_id).reason === 'full_reversal') stats.reversalsCounted++;
    }
    if (event.type === 'CreditNoteIssued') stats.issued++;
    if (event.type === 'CreditNoteReleased') stats.released++;
    if (event.type === 'InvoiceVoided') stats.reversalsIssued++;
  }
}

const MONEY = /^-?\d+\.\d{2}$/;

/** What must hold on every state the stream reaches. */
function expectInvariants(invoice: KnownInvoice): void {
  const allowance = invoiceAllowance(invoice);
  // nothing credited beyond what is left, per bucket or row
  for (const b of allowance.buckets) for (const v of [b.left_base, b.left_vat, b.left_gross]) expect(new Dec(v).isNegative(), `bucket left ${JSON.stringify(b)}`).to.equal(false);
  for (const l of allowance.lines) for (const v of [l.left_quantity, l.left_net, l.left_vat]) expect(new Dec(v).isNegative(), `line left ${JSON.stringify(l)}`).to.equal(false);
  // base + vat = gross exactly, on every row of every credit note, counted or not
  for (const note of invoice.credit_notes) {
    for (const row of note.rows) {
      for (const money of [row.base, row.vat, row.gross]) expect(money).to.match(MONEY);
      expect(new Dec(row.base).plus(row.vat).equals(new Dec(row.gross)), `base + vat = gross: ${JSON.stringify(row)}`).to.equal(true);
    }
  }
  // a counted full_reversal (queued or issued) leaves zero, and the counted rows are the invoice's totals
  const reversal = countingCreditNotes(invoice).find((c) => c.reason === 'full_reversal');
  if (reversal) {
    for (const b of allowance.buckets) expect([b.left_base, b.left_vat, b.left_gross], `left after ${reversal.credit_note_number}`).to.deep.equal(['0.00', '0.00', '0.00']);
    expect(allowance.left_gross).to.equal('0.00');
    const rows = countingCreditNotes(invoice).flatMap((c) => c.rows);
    const total = (field: 'base' | 'vat' | 'gross') => rows.reduce((s, r) => s.plus(r[field]), ZERO).toFixed(2);
    expect([total('base'), total('vat'), total('gross')]).to.deep.equal([invoice.totals.total_net, invoice.totals.total_vat, invoice.totals.total_gross]);
    // only an issued one voids the invoice
    expect(invoice.status === 'voided', `status ${invoice.status} with ${reversal.issued ? 'an issued' : 'a queued'} full reversal`).to.equal(reversal.issued);
  } else {
    expect(invoice.status).to.not.equal('voided');
  }
  expect(countingCreditNotes(invoice).filter((c) => c.reason === 'full_reversal').length).to.be.at.most(1);
}
