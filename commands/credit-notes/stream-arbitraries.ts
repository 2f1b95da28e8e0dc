// Generated invoices and command sequences on an invoice's stream, for the stream-level property
// tests (pure: stream.property.test.ts; read model against a real store:
// test/projections/credit-note-allowance.property.test.ts). A step is chosen blind and made
// concrete against the state at that point, as a client reading the allowance would; the real
// decider decides it and evolveInvoice folds what it returns.
import fc from 'fast-check';
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import type { InvoiceLine } from '../invoices/model.ts';
import { Dec, ZERO } from '../invoices/money.ts';
import { evolveInvoice, type CreditNoteEntry, type KnownInvoice } from '../invoices/state.ts';
import type { RequestScope } from '../shared/access.ts';
import { DomainError } from '../shared/domain-error.ts';
import { creditNoteDecider, invoiceAllowance, type CreditNoteCommand } from './decider.ts';
import type { Allowance, CreditAmount, CreditNoteRequest } from './model.ts';
import { line } from './test-fixtures.ts';

export const AT = '2026-11-24T10:00:00.000Z';

/** The VAT buckets a generated line may fall in; spellings vary as clients send them. */
export const VAT = [
  { vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null },
  { vat_rate: '23.00', vat_category_code: 'S', vat_exemption_reason_code: null },
  { vat_rate: '19', vat_category_code: 'S', vat_exemption_reason_code: null },
  { vat_rate: '5', vat_category_code: 'S', vat_exemption_reason_code: null },
  { vat_rate: '0', vat_category_code: 'Z', vat_exemption_reason_code: null },
  { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132' },
  { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'vatex-eu-135' },
  { vat_rate: '0', vat_category_code: 'AE', vat_exemption_reason_code: 'VATEX-EU-AE' },
  { vat_rate: '0', vat_category_code: 'K', vat_exemption_reason_code: 'VATEX-EU-IC' },
] as const;

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => new Dec(c).dividedBy(100));

/** One invoice line in one of `vats`, numbered when the invoice is made. */
export const lineArbOf = (vats: readonly (typeof VAT)[number][]) => fc
  .record({
    quantity: fc.oneof(fc.integer({ min: 1, max: 50 }).map(String), fc.integer({ min: 1, max: 99_999 }).map((q) => new Dec(q).dividedBy(1000).toString())),
    price: fc.oneof(cents(100_000), fc.integer({ min: 0, max: 9_999_999 }).map((p) => new Dec(p).dividedBy(10_000))),
    vat: fc.constantFrom(...vats),
    discount: fc.oneof(
      fc.constant(null),
      fc.integer({ min: 0, max: 10_000 }).map((p) => ({ percentage: new Dec(p).dividedBy(100).toString() })),
      fc.integer({ min: 0, max: 1000 }).map((p) => ({ share: p })),
    ),
  })
  .map(({ quantity, price, vat, discount }) => (n: number): InvoiceLine => {
    const before = new Dec(quantity).times(price).toDecimalPlaces(2);
    return line(n, {
      quantity, unit_price: price.toString(), ...vat,
      discount_percentage: discount && 'percentage' in discount ? discount.percentage : null,
      // an amount off of at most the line's amount
      discount_amount: discount && 'share' in discount ? before.times(discount.share).dividedBy(1000).toDecimalPlaces(2, Dec.ROUND_DOWN).toFixed(2) : null,
    });
  });

const lineArb = lineArbOf(VAT);

/** An invoice's lines: as many invoices of a few lines as of many, up to the 200-line soft cap. */
export const invoiceLinesArb: fc.Arbitrary<InvoiceLine[]> = fc
  .oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 6, max: 40 }), fc.integer({ min: 41, max: 200 }))
  .chain((n) => fc.array(lineArb, { minLength: n, maxLength: n }))
  .map((lines) => lines.map((make, i) => make(i + 1)));

/**
 * How much of what is left a request asks for: all of it, a share (per mille), all but a few of
 * the smallest units (where a split most likely moves its cent), or more than is left.
 */
export const portionArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant('all' as const) },
  { weight: 1, arbitrary: fc.constant('over' as const) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 999 }) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }).map((units) => ({ allBut: units })) },
);
export type Portion = 'all' | 'over' | number | { allBut: number };

/** Which credit note of the invoice a step acts on: `open`, one the command would change, if there is one; else any. */
const pickArb = fc.record({ open: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), index: fc.nat() });
type Pick = { open: boolean; index: number };

const reserveArb = fc.record({
  kind: fc.constant('reserve' as const),
  // false: it waits (pending approval, a void's draft) and counts only when sent
  counted: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }),
  request: fc.oneof(
    { weight: 1, arbitrary: fc.record({ reason: fc.constant('full_reversal' as const) }) },
    {
      weight: 4,
      arbitrary: fc.record({
        reason: fc.constantFrom('partial_credit' as const, 'price_correction' as const),
        picks: fc.array(fc.record({ bucket: fc.nat(), portion: portionArb, omitCode: fc.boolean() }), { minLength: 1, maxLength: 3 }),
      }),
    },
    { weight: 4, arbitrary: fc.record({ reason: fc.constant('returned_goods' as const), picks: fc.array(fc.record({ line: fc.nat(), portion: portionArb }), { minLength: 1, maxLength: 5 }) }) },
  ),
});

export const stepArb = fc.oneof(
  { weight: 8, arbitrary: reserveArb },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('count' as const), pick: pickArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('issue' as const), pick: pickArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: pickArb, why: fc.constantFrom('failed' as const, 'rejected' as const, 'discarded' as const) }) },
  // the same reservation again (a retried request): decides nothing
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), pick: pickArb }) },
);
export type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

/** Sequences of any length up to maxLength, not only the short ones fast-check prefers. */
export const stepsArb = (maxLength: number) => fc.array(stepArb, { minLength: 1, maxLength, size: 'max' });

export const scopeOf = (invoice: KnownInvoice): RequestScope => ({ organisationId: invoice.organisation_id, companyId: invoice.company_id });

/** The command a blind step stands for on this state; `next` numbers a new credit note. */
export function commandOf(step: Step, invoice: KnownInvoice, next: number): CreditNoteCommand {
  const target = (pick: Pick, changes: (c: CreditNoteEntry) => boolean) => {
    const open = invoice.credit_notes.filter(changes);
    const from = pick.open && open.length > 0 ? open : invoice.credit_notes;
    // none yet: an id the invoice does not know (credit_note_not_found)
    return from[pick.index % Math.max(from.length, 1)]?.credit_note_id ?? `unknown-${next}`;
  };
  switch (step.kind) {
    case 'reserve':
      return reserve(`cn-${next}`, requestOf(step.request, invoiceAllowance(invoice)), step.counted, invoice);
    case 'repeat':
      return reserve(target(step.pick, () => true), { reason: 'full_reversal' }, true, invoice);
    case 'count':
      return { type: 'CountCreditNote', credit_note_id: target(step.pick, (c) => !c.counted && !c.released), at: AT };
    case 'issue':
      return { type: 'RecordCreditNoteIssued', credit_note_id: target(step.pick, (c) => c.counted && !c.issued && !c.released), at: AT };
    case 'release':
      return { type: 'ReleaseCreditNote', credit_note_id: target(step.pick, (c) => !c.issued && !c.released), why: step.why, at: AT };
  }
}

const reserve = (id: string, request: CreditNoteRequest, counted: boolean, invoice: KnownInvoice): CreditNoteCommand => ({
  type: 'ReserveCreditNote', scope: scopeOf(invoice), credit_note_id: id, credit_note_number: `DOB-2026-${id}`, request, counted, reserved_by: 'key-1', at: AT,
});

function requestOf(request: Extract<Step, { kind: 'reserve' }>['request'], allowance: Allowance): CreditNoteRequest {
  if (request.reason === 'full_reversal') return { reason: 'full_reversal' };
  if (request.reason === 'returned_goods') {
    return {
      reason: 'returned_goods',
      lines: request.picks.map(({ line, portion }) => {
        const l = allowance.lines[line % allowance.lines.length]!;
        return { source_line_id: l.id, quantity: part(new Dec(l.left_quantity), portion, 3, '0.001').toString() };
      }),
    };
  }
  const amounts = request.picks.map(({ bucket, portion, omitCode }): CreditAmount => {
    const b = allowance.buckets[bucket % allowance.buckets.length]!;
    const named = { vat_rate: b.vat_rate, vat_category_code: b.vat_category_code, gross: part(new Dec(b.left_gross), portion, 2, '0.01').toFixed(2) };
    return omitCode ? named : { ...named, vat_exemption_reason_code: b.vat_exemption_reason_code };
  });
  return { reason: request.reason, amounts };
}

/** The share of `left` a portion asks for, at least the smallest unit, so always a well-formed request. */
export function part(left: Dec, portion: Portion, places: number, smallest: string): Dec {
  const least = new Dec(smallest);
  if (portion === 'over') return Dec.max(left, ZERO).plus(least);
  if (portion === 'all') return Dec.max(left, least);
  if (typeof portion === 'object') return Dec.max(left.minus(least.times(portion.allBut)), least);
  return Dec.max(left.times(portion).dividedBy(1000).toDecimalPlaces(places, Dec.ROUND_DOWN), least);
}

export type Outcome = { events: CreditNoteEvent[]; state: KnownInvoice } | { refused: DomainError };

/**
 * The real decider on the state, and the fold of what it decides. A DomainError is a refusal;
 * anything else thrown (a RangeError, a TypeError, a request-body 422) is a bug and propagates.
 */
export function decideOn(invoice: KnownInvoice, command: CreditNoteCommand): Outcome {
  let events: CreditNoteEvent[];
  try {
    events = creditNoteDecider.decide(command, invoice) as CreditNoteEvent[];
  } catch (error) {
    if (error instanceof DomainError) return { refused: error };
    throw error;
  }
  const state = events.reduce(evolveInvoice, invoice);
  if (state.status === 'none') throw new Error('the fold lost the invoice');
  return { events, state };
}
