import type { UsageEvent, UsageSource } from '../../events/usage.ts';
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

/** Takes back the count of a document that was never written (InvoiceCountReleased); nothing when it was not counted. */
export type ReleaseInvoiceCount = {
  type: 'ReleaseInvoiceCount';
  organisation_id: string;
  invoice_id: string;
  month: string;
  at: string;
};

export type UsageCommand = CountInvoice | ReleaseInvoiceCount;

// An immutable list rather than a Set: evolve must not mutate, and copying a Set per event would
// make folding a busy month quadratic. Membership is looked up once per command.
type Counted = { invoice_id: string; rest: Counted } | null;

/** `released`: counts taken back (rare: a lost race), so the counted list itself stays prepend-only. */
export type UsageState = { count: number; counted: Counted; released: Counted };

function isCounted(list: Counted, invoiceId: string): boolean {
  return list !== null && indexOf(list).has(invoiceId);
}

// The ids of a list, as a Set kept beside it (never in the state, which stays immutable). evolve
// only prepends, so a list's Set is handed on to the list one count longer and given the new id:
// deciding on a month's newest state costs a lookup, not a walk of every invoice counted in it.
// A list whose Set was handed on (an older state asked again) builds its own once.
const indexes = new WeakMap<NonNullable<Counted>, Set<string>>();

function indexOf(list: NonNullable<Counted>): Set<string> {
  const kept = indexes.get(list);
  if (kept) return kept;
  const handed = list.rest && indexes.get(list.rest);
  let index: Set<string>;
  if (list.rest && handed) {
    indexes.delete(list.rest);
    index = handed.add(list.invoice_id);
  } else {
    index = new Set();
    for (let node: Counted = list; node; node = node.rest) index.add(node.invoice_id);
  }
  indexes.set(list, index);
  return index;
}

export const usageDecider: Decider<UsageCommand, UsageEvent, UsageState> = {
  initialState: { count: 0, counted: null, released: null },
  decide(command, state) {
    if (command.type === 'ReleaseInvoiceCount') {
      if (!isCounted(state.counted, command.invoice_id) || isCounted(state.released, command.invoice_id)) return [];
      return [{
        type: 'InvoiceCountReleased',
        data: {
          organisation_id: command.organisation_id, invoice_id: command.invoice_id, month: command.month,
          count: state.count - 1, reason: 'not_created', released_at: command.at,
        },
      }];
    }
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
  evolve: (state, event) =>
    event.type === 'InvoiceCounted'
      ? { ...state, count: event.data.count, counted: { invoice_id: event.data.invoice_id, rest: state.counted } }
      : { ...state, count: event.data.count, released: { invoice_id: event.data.invoice_id, rest: state.released } },
};

/** The billing month ('YYYY-MM') of an instant, in Slovak time: a send at 00:30 on the 1st counts in the new month. */
export function usageMonth(at: string | Date, timeZone = 'Europe/Bratislava'): string {
  const parts = monthFormat(timeZone).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}`;
}

// a DateTimeFormat is costly to make (a send counts one per request): one per time zone, reused
const monthFormats = new Map<string, Intl.DateTimeFormat>();

function monthFormat(timeZone: string): Intl.DateTimeFormat {
  let format = monthFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' });
    monthFormats.set(timeZone, format);
  }
  return format;
}
