import { expect } from 'chai';
import fc from 'fast-check';
import type { InvoiceCounted, InvoiceCountReleased } from '../../events/usage.ts';
import { usageStream } from '../../events/usage.ts';
import { specFor } from '../shared/given.ts';
import { usageDecider, usageMonth, type CountInvoice, type ReleaseInvoiceCount } from './usage.ts';

const at = '2026-03-10T09:00:00.000Z';
const given = specFor(usageDecider);

const count = (invoiceId: string, plan: string, source: 'api' | 'sapi' = 'api'): CountInvoice => ({
  type: 'CountInvoice',
  organisation_id: 'o1',
  invoice_id: invoiceId,
  month: '2026-03',
  plan,
  source,
  at,
});
const counted = (invoiceId: string, n: number, overage = false): InvoiceCounted => ({
  type: 'InvoiceCounted',
  data: { organisation_id: 'o1', invoice_id: invoiceId, month: '2026-03', count: n, overage, source: 'api', counted_at: at },
});
const release = (invoiceId: string): ReleaseInvoiceCount => ({ type: 'ReleaseInvoiceCount', organisation_id: 'o1', invoice_id: invoiceId, month: '2026-03', at });
const released = (invoiceId: string, n: number): InvoiceCountReleased => ({
  type: 'InvoiceCountReleased',
  data: { organisation_id: 'o1', invoice_id: invoiceId, month: '2026-03', count: n, reason: 'not_created', released_at: at },
});
/** n invoices already counted this month: i1..in */
const history = (n: number, overageAfter = Infinity) => Array.from({ length: n }, (_, i) => counted(`i${i + 1}`, i + 1, i + 1 > overageAfter));

describe('monthly invoice usage', () => {
  it('counts the first invoice of the month as 1', () => given([]).when(count('i1', 'Solo Free')).then([counted('i1', 1)]));

  it('counts on from the month so far', () => given(history(3)).when(count('i4', 'Solo Free')).then([counted('i4', 4)]));

  it('records where the invoice was sent from: SAPI-SK sends share the counter', () =>
    given(history(2))
      .when(count('i3', 'Solo Free', 'sapi'))
      .then([{ ...counted('i3', 3), data: { ...counted('i3', 3).data, source: 'sapi' } }]));

  it('counts an invoice once: a retried send decides nothing', () => given(history(3)).when(count('i2', 'Solo Free')).thenNothingHappened());

  it('knows what each state counted when states one after another and an older one are decided on (the kept index)', () => {
    const states = [usageDecider.initialState];
    for (let i = 1; i <= 5; i++) {
      const state = states[states.length - 1]!;
      const events = usageDecider.decide(count(`i${i}`, 'Solo Free'), state);
      states.push(events.reduce(usageDecider.evolve, state));
    }
    // the newest state, then an older one whose index was handed on, then a branch off the older one
    expect(usageDecider.decide(count('i5', 'Solo Free'), states[5]!)).to.deep.equal([]);
    expect(usageDecider.decide(count('i5', 'Solo Free'), states[3]!)).to.have.length(1);
    expect(usageDecider.decide(count('i3', 'Solo Free'), states[3]!)).to.deep.equal([]);
    const branch = usageDecider.evolve(states[3]!, counted('x', 4));
    expect(usageDecider.decide(count('x', 'Solo Free'), branch)).to.deep.equal([]);
    expect(usageDecider.decide(count('x', 'Solo Free'), states[5]!)).to.have.length(1);
    expect(usageDecider.decide(count('i4', 'Solo Free'), branch)).to.have.length(1);
    expect(usageDecider.decide(count('i4', 'Solo Free'), states[5]!)).to.deep.equal([]);
  });

  it('knows what any state counted, however states branch and are asked in turn (a group-commit attempt thrown away, then caught up)', () => {
    // each step: extend a state asked before with an id (often one another branch has), or ask a state about an id
    const step = fc.record({ from: fc.nat(), extend: fc.boolean(), id: fc.integer({ min: 1, max: 12 }) });
    fc.assert(fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
      const states: { state: typeof usageDecider.initialState; ids: Set<string> }[] = [{ state: usageDecider.initialState, ids: new Set() }];
      for (const { from, extend, id } of steps) {
        const { state, ids } = states[from % states.length]!;
        const invoiceId = `i${id}`;
        const decided = usageDecider.decide(count(invoiceId, 'Team Enterprise'), state);
        expect(decided.length, `${invoiceId} counted in state ${from % states.length}`).to.equal(ids.has(invoiceId) ? 0 : 1);
        if (extend && decided.length > 0) states.push({ state: decided.reduce(usageDecider.evolve, state), ids: new Set([...ids, invoiceId]) });
      }
    }), { numRuns: 300 });
  });

  it('does not refuse a retried send of an already counted invoice at the quota', () =>
    given(history(10)).when(count('i10', 'Solo Free')).thenNothingHappened());

  it('allows the last invoice within the quota', () => given(history(9)).when(count('i10', 'Solo Free')).then([counted('i10', 10)]));

  it('refuses an invoice past the quota of a plan without overage: usage_limit_exceeded', () => {
    given(history(10)).when(count('i11', 'solo free')).thenThrows('usage_limit_exceeded', {
      current_plan: 'Solo Free',
      limit: 10,
      current_usage: 10,
    });
  });

  it('counts past the quota on a plan with overage, marked for billing', () =>
    given(history(1000))
      .when(count('i1001', 'Team Business'))
      .then([counted('i1001', 1001, true)]));

  it('keeps marking overage after the first one', () =>
    given(history(1001, 1000))
      .when(count('i1002', 'Team Business'))
      .then([counted('i1002', 1002, true)]));

  it('applies the quota of the plan the organisation has now', () =>
    given(history(60)).when(count('i61', 'Solo Lite')).thenThrows('usage_limit_exceeded', { limit: 50, current_usage: 60 }));

  it('counts without limit on an unlimited plan', () =>
    given(history(20_000)).when(count('x', 'Team Enterprise')).then([counted('x', 20_001)]));

  it('gives an unknown plan the fallback quota without overage', () =>
    given(history(50)).when(count('i51', 'Gold')).thenThrows('usage_limit_exceeded', { current_plan: 'Gold', limit: 50 }));

  it('takes back the count of a document that was never written: the month counts one less', () =>
    given(history(3)).when(release('i2')).then([released('i2', 2)]));

  it('takes a count back once, and never one that was not taken', () => {
    given([...history(3), released('i2', 2)]).when(release('i2')).thenNothingHappened();
    given(history(3)).when(release('x')).thenNothingHappened();
  });

  it('a count taken back frees its place under the quota', () =>
    given([...history(10), released('i10', 9)]).when(count('i11', 'Solo Free')).then([counted('i11', 10)]));

  it('keeps one stream per organisation and month', () => expect(usageStream('o1', '2026-03')).to.equal('usage-o1-2026-03'));

  it('takes the month in Slovak time', () => {
    expect(usageMonth('2026-01-31T23:30:00Z')).to.equal('2026-02');
    expect(usageMonth('2026-07-31T21:59:59Z')).to.equal('2026-07');
    expect(usageMonth('2026-07-31T22:00:00Z')).to.equal('2026-08');
  });
});
