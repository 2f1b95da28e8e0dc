import type { InvoiceCounted, UsageSource } from '../../events/usage.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { UPGRADE_URL, isUnlimited, planLabel, planOf } from './plans.ts';

/**
 * The monthly invoice counter (native API and SAPI-SK sends share it). An invoice counts once, so a
 * retried send is not counted twice. At the quota, a plan without overage is refused with 402
 * `usage_limit_exceeded`; a plan with overage goes on and the invoice is marked for billing.
 */
export type CountInvoice = {
  type: 'CountInvoice';
  organisation_id: string;
  invoice_id: string;
  /** 'YYYY-MM', see usageMonth */
  month: string;
  /** the organisation's plan now: a plan changed mid-month applies its quota from then on */
  plan: string;
  source: UsageSource;
  at: string;
};

// An immutable list rather than a Set: evolve must not mutate, and copying a Set per event would
// make folding a busy month quadratic. Membership is looked up once per command.
type Counted = { invoice_id: string; rest: Counted } | null;

export type UsageState = { count: number; counted: Counted };

function isCounted(list: Counted, invoiceId: string): boolean {
  for (let node = list; node; node = node.rest) if (node.invoice_id === invoiceId) return true;
  return false;
}

export const usageDecider: Decider<CountInvoice, InvoiceCounted, UsageState> = {
  initialState: { count: 0, counted: null },
  decide(command, state) {
    if (isCounted(state.counted, command.invoice_id)) return [];
    const { monthlyInvoices: limit, overage: overageAllowed } = planOf(command.plan);
    const over = !isUnlimited(limit) && state.count >= limit;
    if (over && !overageAllowed) {
      throw new DomainError('usage_limit_exceeded', 402, `the monthly limit of ${limit} invoices on this plan is reached`, {
        current_plan: planLabel(command.plan),
        limit,
        current_usage: state.count,
        upgrade_url: UPGRADE_URL,
      });
    }
    return [
      {
        type: 'InvoiceCounted',
        data: {
          organisation_id: command.organisation_id,
          invoice_id: command.invoice_id,
          month: command.month,
          count: state.count + 1,
          overage: over,
          source: command.source,
          counted_at: command.at,
        },
      },
    ];
  },
  evolve: (state, event) => ({ count: event.data.count, counted: { invoice_id: event.data.invoice_id, rest: state.counted } }),
};

/** The billing month ('YYYY-MM') of an instant, in Slovak time: a send at 00:30 on the 1st counts in the new month. */
export function usageMonth(at: string | Date, timeZone = 'Europe/Bratislava'): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}`;
}
