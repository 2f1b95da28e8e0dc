// Generated credit-note sequences for the document property tests (unit and UBL validation): a
// sequence of blind steps, each made concrete against what is left at that point, as clients would.
import fc from 'fast-check';
import type { KnownInvoice } from '../invoices/state.ts';
import { Dec } from '../invoices/money.ts';
import { DomainError } from '../shared/domain-error.ts';
import { allowanceOf } from './allowance.ts';
import { CreditLimitExceeded } from './credit-limit.ts';
import type { Allowance, CreditAmount, CreditedNote, CreditNoteRequest, CreditRow } from './model.ts';
import { creditNoteRows } from './rows.ts';

/**
 * How much of what is left a step asks for: all, a share (per mille), or all but a few smallest
 * units. Never more: refusals make no document (the rules' own property test covers them).
 */
const portionArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant('all' as const) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 999 }) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }).map((units) => ({ allBut: units })) },
);
type Portion = 'all' | number | { allBut: number };

export const stepArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('partial_credit' as const, 'price_correction' as const), picks: fc.array(fc.record({ bucket: fc.nat(), portion: portionArb }), { minLength: 1, maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('returned_goods' as const), picks: fc.array(fc.record({ line: fc.nat(), portion: portionArb }), { minLength: 1, maxLength: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('full_reversal' as const) }) },
  // a credit note that failed or was rejected stops counting: its amount is free again
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fails' as const), note: fc.nat() }) },
);
export type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

interface Made {
  request: CreditNoteRequest;
  rows: CreditRow[];
}

/**
 * The credit notes a sequence makes against the invoice, in order, refused requests left out; and
 * a last full reversal when something is left, so every sequence ends with rest (or copy) rows.
 */
export function creditNotesOf(invoice: KnownInvoice, steps: readonly Step[]): Made[] {
  const made: Made[] = [];
  let counted: CreditedNote[] = [];
  const attempt = (request: CreditNoteRequest) => {
    const allowance = allowanceOf(invoice, counted);
    if (!allowance.creditable) return;
    try {
      const rows = creditNoteRows(request, allowance);
      made.push({ request, rows });
      counted = [...counted, { credit_note_id: `cn-${made.length}`, reason: request.reason, rows }];
    } catch (error) {
      if (!(error instanceof CreditLimitExceeded) && !(error instanceof DomainError)) throw error;
    }
  };
  for (const step of steps) {
    if (step.kind === 'fails') counted = counted.filter((_, i) => i !== step.note % Math.max(counted.length, 1));
    else attempt(requestOf(step, allowanceOf(invoice, counted)));
  }
  attempt({ reason: 'full_reversal' });
  return made;
}

function requestOf(step: Exclude<Step, { kind: 'fails' }>, allowance: Allowance): CreditNoteRequest {
  if (step.kind === 'full_reversal') return { reason: 'full_reversal' };
  if (step.kind === 'returned_goods') {
    return {
      reason: 'returned_goods',
      lines: distinct(step.picks.map((p) => ({ ...p, at: p.line % allowance.lines.length }))).map(({ at, portion }) => {
        const l = allowance.lines[at]!;
        return { source_line_id: l.id, quantity: part(new Dec(l.left_quantity), portion, 3, '1').toString() };
      }),
    };
  }
  const amounts = distinct(step.picks.map((p) => ({ ...p, at: p.bucket % allowance.buckets.length }))).map(({ at, portion }): CreditAmount => {
    const b = allowance.buckets[at]!;
    const gross = part(new Dec(b.left_gross), portion, 2, '0.01').toFixed(2);
    return { vat_rate: b.vat_rate, vat_category_code: b.vat_category_code, vat_exemption_reason_code: b.vat_exemption_reason_code, gross };
  });
  return { reason: step.kind, amounts };
}

/** Each line or bucket once: a repeated one is refused, and refusals make no document. */
function distinct<T extends { at: number }>(picks: T[]): T[] {
  return picks.filter((p, i) => picks.findIndex((q) => q.at === p.at) === i);
}

/** The share of `left` a portion asks for, at least the smallest unit. */
function part(left: Dec, portion: Portion, places: number, smallest: string): Dec {
  const least = new Dec(smallest);
  if (portion === 'all') return Dec.max(left, least);
  if (typeof portion === 'object') return Dec.max(left.minus(least.times(portion.allBut)), least);
  return Dec.max(left.times(portion).dividedBy(1000).toDecimalPlaces(places, Dec.ROUND_DOWN), least);
}
