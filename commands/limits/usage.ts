import type { UsageEvent, UsageSource } from '../../events/usage.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { isUnlimited, planLabel, planOf } from './plans.ts';

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
// make folding a busy month quadratic. Membership is looked up once per command. `depth` is the
// list's length up to and including the node.
type Node = { invoice_id: string; rest: Counted; depth: number };
type Counted = Node | null;

/** `released`: counts taken back (rare: a lost race), so the counted list itself stays prepend-only. */
export type UsageState = { count: number; counted: Counted; released: Counted };

const prepend = (list: Counted, invoiceId: string): Node => ({ invoice_id: invoiceId, rest: list, depth: (list?.depth ?? 0) + 1 });

function isCounted(list: Counted, invoiceId: string): boolean {
  return list !== null && synced(list).ids.has(invoiceId);
}

// The ids of a list, kept beside it (never in the state, which stays immutable), shared by the
// lists of one lineage: `chain` is the list the index stands for now, oldest first (chain[i] has
// depth i + 1), `ids` counts its ids. A lookup moves the index to the list asked about: back to
// the newest node both share, then forward along the list. Deciding on a month's newest state
// costs a lookup; on the state one group-commit attempt started from, after that attempt was
// thrown away (another instance wrote first), it costs the group, not a walk of the whole month.
type Index = { chain: Node[]; ids: Map<string, number> };
const indexes = new WeakMap<Node, Index>();

const onChain = (node: Node, index: Index | undefined): index is Index => index !== undefined && index.chain[node.depth - 1] === node;

function synced(list: Node): Index {
  const path: Node[] = [];
  let node: Counted = list;
  let index: Index | undefined;
  for (; node; node = node.rest) {
    index = indexes.get(node);
    if (onChain(node, index)) break;
    path.push(node);
  }
  if (!node || !index) index = { chain: [], ids: new Map() };
  for (let keep = node?.depth ?? 0; index.chain.length > keep; ) {
    const id = (index.chain.pop() as Node).invoice_id;
    const left = (index.ids.get(id) ?? 1) - 1;
    if (left === 0) index.ids.delete(id);
    else index.ids.set(id, left);
  }
  for (let i = path.length - 1; i >= 0; i--) {
    const added = path[i] as Node;
    index.chain.push(added);
    index.ids.set(added.invoice_id, (index.ids.get(added.invoice_id) ?? 0) + 1);
    indexes.set(added, index);
  }
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
      throw new DomainError('usage_limit_exceeded', `the monthly limit of ${limit} invoices on this plan is reached`, {
        current_plan: planLabel(command.plan),
        limit,
        current_usage: state.count,
        // upgrade_url: the front door adds the deployment's (UPGRADE_URL)
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
      ? { ...state, count: event.data.count, counted: prepend(state.counted, event.data.invoice_id) }
      : { ...state, count: event.data.count, released: prepend(state.released, event.data.invoice_id) },
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
