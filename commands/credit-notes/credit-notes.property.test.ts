// Property tests: generated invoices and random sequences of credit notes never credit more than is
// left, per bucket or row, to the cent. CREDIT_NOTE_PROPERTY_RUNS sets the runs (default 100, about
// two seconds); raise it for a deeper search, e.g. CREDIT_NOTE_PROPERTY_RUNS=2000.
import { expect } from 'chai';
import fc from 'fast-check';
import type { KnownInvoice } from '../invoices/decider.ts';
import { Dec, ZERO } from '../invoices/money.ts';
import { DomainError } from '../shared/domain-error.ts';
import { allowanceOf } from './allowance.ts';
import { bucketKey } from './bucket-key.ts';
import { CreditLimitExceeded } from './credit-limit.ts';
import type { Allowance, CreditAmount, CreditedNote, CreditNoteRequest, CreditRow } from './model.ts';
import { creditNoteRows } from './rows.ts';
import { VAT, invoiceLinesArb, lineArbOf, part, portionArb } from './stream-arbitraries.ts';
import { issued } from './test-fixtures.ts';

const RUNS = Number(process.env.CREDIT_NOTE_PROPERTY_RUNS ?? 100);

const invoiceArb = invoiceLinesArb.map((lines) => issued(lines));

/** A step, chosen blind and made concrete against the allowance at that point. */
const stepArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('partial_credit' as const, 'price_correction' as const), picks: fc.array(fc.record({ bucket: fc.nat(), portion: portionArb, omitCode: fc.boolean() }), { minLength: 1, maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('returned_goods' as const), picks: fc.array(fc.record({ line: fc.nat(), portion: portionArb }), { minLength: 1, maxLength: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('full_reversal' as const) }) },
  // a credit note that failed or was rejected stops counting: its amount is free again
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fails' as const), note: fc.nat() }) },
);
type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

function request(step: Exclude<Step, { kind: 'fails' }>, allowance: Allowance): CreditNoteRequest {
  if (step.kind === 'full_reversal') return { reason: 'full_reversal' };
  if (step.kind === 'returned_goods') {
    return {
      reason: 'returned_goods',
      lines: step.picks.map(({ line, portion }) => {
        const l = allowance.lines[line % allowance.lines.length]!;
        return { source_line_id: l.id, quantity: part(new Dec(l.left_quantity), portion, 3, '1').toString() };
      }),
    };
  }
  const amounts = step.picks.map(({ bucket, portion, omitCode }): CreditAmount => {
    const b = allowance.buckets[bucket % allowance.buckets.length]!;
    const named = { vat_rate: b.vat_rate, vat_category_code: b.vat_category_code, gross: part(new Dec(b.left_gross), portion, 2, '0.01').toFixed(2) };
    return omitCode ? named : { ...named, vat_exemption_reason_code: b.vat_exemption_reason_code };
  });
  return { reason: step.kind, amounts };
}

const sums = (rows: CreditRow[]) => {
  const by = new Map<string, { base: Dec; vat: Dec; gross: Dec }>();
  for (const r of rows) {
    const s = by.get(bucketKey(r)) ?? { base: ZERO, vat: ZERO, gross: ZERO };
    by.set(bucketKey(r), { base: s.base.plus(r.base), vat: s.vat.plus(r.vat), gross: s.gross.plus(r.gross) });
  }
  return by;
};

function expectWithinLeft(before: Allowance, rows: CreditRow[]): void {
  for (const row of rows) {
    expect(new Dec(row.base).plus(row.vat).equals(new Dec(row.gross)), `base + vat = gross: ${JSON.stringify(row)}`).to.equal(true);
    for (const money of [row.base, row.vat, row.gross]) expect(money).to.match(/^-?\d+\.\d{2}$/);
  }
  const by = sums(rows);
  for (const b of before.buckets) {
    const s = by.get(bucketKey(b));
    if (!s) continue;
    expect(s.base.lessThanOrEqualTo(b.left_base) && s.vat.lessThanOrEqualTo(b.left_vat) && s.gross.lessThanOrEqualTo(b.left_gross), `bucket ${bucketKey(b)} credited beyond what is left`).to.equal(true);
  }
  for (const l of before.lines) {
    const returns = rows.filter((r) => r.kind === 'return' && r.source_line_id === l.id);
    const quantity = returns.reduce((s, r) => s.plus(r.quantity ?? 0), ZERO);
    const net = returns.reduce((s, r) => s.plus(r.base), ZERO);
    const vat = returns.reduce((s, r) => s.plus(r.vat), ZERO);
    expect(quantity.lessThanOrEqualTo(l.left_quantity) && net.lessThanOrEqualTo(l.left_net) && vat.lessThanOrEqualTo(l.left_vat), `line ${l.line_number} credited beyond what is left`).to.equal(true);
  }
}

function expectNothingNegative(allowance: Allowance): void {
  for (const b of allowance.buckets) for (const v of [b.left_base, b.left_vat, b.left_gross]) expect(new Dec(v).isNegative(), `bucket left ${JSON.stringify(b)}`).to.equal(false);
  for (const l of allowance.lines) for (const v of [l.left_quantity, l.left_net, l.left_vat]) expect(new Dec(v).isNegative(), `line left ${JSON.stringify(l)}`).to.equal(false);
}

/** After a full reversal: zero left, and the counted credit notes' rows add up to the invoice exactly. */
function expectFullyCredited(invoice: KnownInvoice, allowance: Allowance, notes: CreditedNote[]): void {
  for (const b of allowance.buckets) expect([b.left_base, b.left_vat, b.left_gross]).to.deep.equal(['0.00', '0.00', '0.00']);
  const rows = notes.flatMap((n) => n.rows);
  const total = (field: 'base' | 'vat' | 'gross') => rows.reduce((s, r) => s.plus(r[field]), ZERO).toFixed(2);
  expect([total('base'), total('vat'), total('gross')]).to.deep.equal([invoice.totals.total_net, invoice.totals.total_vat, invoice.totals.total_gross]);
}

describe('credit notes, property-based (fast-check)', function () {
  this.timeout(600_000);

  it('random sequences of the four reasons never credit beyond what is left, and a full reversal credits the invoice exactly', () => {
    const seen = checkSequences(invoiceArb, fc.array(stepArb, { minLength: 1, maxLength: 12 }), RUNS);
    expect(seen.accepted, JSON.stringify(seen)).to.be.greaterThan(0);
  });

  it('rule 5 after returns and earlier splits: a gross up to what is left always fits, never above left base or VAT', () => {
    // small invoices, credited nearly to the end, where left base and VAT drift off the rate's proportion
    const rated = lineArbOf(VAT.filter((v) => v.vat_category_code === 'S'));
    const small = fc.integer({ min: 1, max: 4 }).chain((n) => fc.array(rated, { minLength: n, maxLength: n })).map((lines) => issued(lines.map((make, i) => make(i + 1))));
    const nearlyAll = fc.oneof(fc.constant('all' as const), fc.integer({ min: 1, max: 5 }).map((units) => ({ allBut: units })), fc.integer({ min: 900, max: 999 }));
    const step = fc.oneof(
      fc.record({ kind: fc.constant('partial_credit' as const), picks: fc.tuple(fc.record({ bucket: fc.nat(), portion: nearlyAll, omitCode: fc.constant(false) })) }),
      fc.record({ kind: fc.constant('returned_goods' as const), picks: fc.tuple(fc.record({ line: fc.nat(), portion: fc.integer({ min: 1, max: 999 }) })) }),
    );
    const seen = checkSequences(small, fc.array(step, { minLength: 2, maxLength: 8 }), RUNS * 5);
    expect(seen.accepted, JSON.stringify(seen)).to.be.greaterThan(0);
  });
});

/**
 * Runs generated step sequences on generated invoices: every accepted credit note stays within what
 * is left, every row's base + vat = gross, refusals are the spec's and deserved, and a full reversal
 * (in the sequence, or at the end) leaves zero with the credited rows summing to the invoice totals.
 */
function checkSequences(invoices: fc.Arbitrary<KnownInvoice>, sequences: fc.Arbitrary<Step[]>, numRuns: number) {
  const seen = { accepted: 0, refused: 0, reversals: 0 };
  fc.assert(
    fc.property(invoices, sequences, (invoice, steps) => {
      let notes: CreditedNote[] = [];
      let allowance = allowanceOf(invoice, notes);
      expectNothingNegative(allowance);
      for (const step of steps) {
        if (step.kind === 'fails') {
          notes = notes.filter((_, i) => i !== step.note % Math.max(notes.length, 1));
          allowance = allowanceOf(invoice, notes);
          expectNothingNegative(allowance);
          continue;
        }
        const asked = request(step, allowance);
        let rows: CreditRow[];
        try {
          rows = creditNoteRows(asked, allowance);
        } catch (error) {
          // refusals are the spec's, never anything else; a refusal changes nothing (the allowance is a function of the notes)
          if (!(error instanceof CreditLimitExceeded) && !(error instanceof DomainError && error.code === 'not_creditable')) throw error;
          if (error instanceof DomainError && error.code === 'not_creditable') expect(allowance.creditable).to.equal(false);
          // an amount within what is left in distinct buckets is never refused
          if (asked.reason === 'partial_credit' || asked.reason === 'price_correction') expectAmountRefusalIsDeserved(asked.amounts, allowance, error);
          seen.refused++;
          continue;
        }
        expectWithinLeft(allowance, rows);
        notes = [...notes, { credit_note_id: `cn-${notes.length + 1}`, reason: asked.reason, rows }];
        allowance = allowanceOf(invoice, notes);
        expectNothingNegative(allowance);
        seen.accepted++;
        if (asked.reason === 'full_reversal') {
          seen.reversals++;
          expectFullyCredited(invoice, allowance, notes);
        }
      }
      // a full reversal at the end, whatever came before, leaves zero
      if (allowance.creditable) {
        const rows = creditNoteRows({ reason: 'full_reversal' }, allowance);
        expectWithinLeft(allowance, rows);
        notes = [...notes, { credit_note_id: 'last', reason: 'full_reversal', rows }];
        expectFullyCredited(invoice, allowanceOf(invoice, notes), notes);
      }
    }),
    { numRuns },
  );
  if (process.env.CREDIT_NOTE_PROPERTY_STATS) console.log(seen);
  return seen;
}

/** A partial credit is refused only for an entry that names a bucket twice, or asks more than its bucket has left. */
function expectAmountRefusalIsDeserved(amounts: CreditAmount[], allowance: Allowance, error: unknown): void {
  if (!(error instanceof CreditLimitExceeded)) return;
  for (const detail of error.details) {
    const i = Number(/amounts\[(\d+)\]/.exec(detail.field)?.[1]);
    const amount = amounts[i]!;
    if (detail.rule === 'vat_rate_cap' && 'vat_rate' in detail) {
      const bucket = allowance.buckets.find((b) => b.vat_rate === detail.vat_rate && b.vat_category_code === detail.vat_category_code && b.vat_exemption_reason_code === detail.vat_exemption_reason_code)!;
      expect(new Dec(amount.gross).greaterThan(bucket.left_gross)).to.equal(true);
    } else {
      // not on invoice only when a code was omitted where two buckets share category and rate
      expect(detail.rule === 'vat_rate_repeated' || (detail.rule === 'vat_rate_not_on_invoice' && amount.vat_exemption_reason_code === undefined), JSON.stringify(detail)).to.equal(true);
    }
  }
}
