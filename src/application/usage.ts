import { usageDecider, usageMonth, type CountInvoice, type UsageState } from '../../commands/limits/usage.ts';
import { usageStream, type InvoiceCounted, type UsageSource } from '../../events/usage.ts';
import { findOrganisationPlan } from '../../projections/tenancy/queries.ts';
import type { EventMetadata, EventStore } from '../eventstore/port.ts';
import type { Ids } from '../ports/ids.ts';
import type { Core } from '../core.ts';
import { GroupCommit } from './group-commit.ts';

/** Organisations whose plan is kept; beyond it the longest kept is forgotten (and read again when next needed). */
const MAX_PLANS = 10_000;

/**
 * An organisation's month is one stream that every send of the organisation counts on:
 * group-committed. It also keeps each organisation's plan once read: a plan is given when the
 * organisation is created (OrganisationCreated; no event changes it, and the register inserts it
 * once), so a plan read once stays true and a send does not read it again. Should plans ever
 * change, this must follow the change.
 */
export class UsageCounts extends GroupCommit<CountInvoice, InvoiceCounted, UsageState> {
  private readonly plans = new Map<string, string>();

  /** The organisation's plan; 'unknown' (not kept) while the register does not show the organisation yet. */
  async planOf(readModels: Core['readModels'], organisationId: string): Promise<string> {
    const kept = this.plans.get(organisationId);
    if (kept !== undefined) return kept;
    const plan = await findOrganisationPlan(readModels, organisationId);
    if (plan === null) return 'unknown';
    this.plans.set(organisationId, plan);
    if (this.plans.size > MAX_PLANS) this.plans.delete(this.plans.keys().next().value as string);
    return plan;
  }
}

export const usageCounts = (deps: { store: EventStore; ids: Ids }): UsageCounts => new UsageCounts(deps, usageDecider);

type Deps = Pick<Core, 'clock' | 'readModels'> & { usage: UsageCounts };

/**
 * Counts an invoice against its organisation's monthly quota (402 usage_limit_exceeded at the
 * limit on a plan without overage). Counting the same invoice again is a no-op, so a retried
 * send costs nothing. The sends of one organisation share the month's stream, so counts are
 * group-committed: a thousand sends at once are a few appends, not a thousand optimistic races.
 */
export async function countInvoice(
  deps: Deps,
  request: { organisationId: string; invoiceId: string; source: UsageSource },
  metadata: EventMetadata,
): Promise<void> {
  const plan = await deps.usage.planOf(deps.readModels, request.organisationId);
  const at = deps.clock.now();
  const month = usageMonth(at);
  await deps.usage.submit(usageStream(request.organisationId, month), {
    type: 'CountInvoice', organisation_id: request.organisationId, invoice_id: request.invoiceId, month, plan,
    source: request.source, at: at.toISOString(),
  }, metadata);
}
