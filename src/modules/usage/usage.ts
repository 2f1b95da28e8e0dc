import { usageDecider, usageMonth, type UsageCommand, type UsageState } from '../../../commands/limits/usage.ts';
import { usageStream, type UsageEvent, type UsageSource } from '../../../events/usage.ts';
import { findOrganisationPlan } from '../../../projections/tenancy/queries.ts';
import type { EventMetadata, EventStore } from '../../platform/eventstore/port.ts';
import type { Ids } from '../../platform/ports/ids.ts';
import type { Core } from '../../platform/core.ts';
import { GroupCommit } from '../../platform/handling/group-commit.ts';

/** Organisations whose plan is kept; beyond it the longest kept is forgotten (and read again when next needed). */
const MAX_PLANS = 10_000;

/**
 * An organisation's month is one stream that every send of the organisation counts on:
 * group-committed. It also keeps each organisation's plan once read: a plan is given when the
 * organisation is created (OrganisationCreated; no event changes it, and the register inserts it
 * once), so a plan read once stays true and a send does not read it again. Should plans ever
 * change, this must follow the change.
 */
export class UsageCounts extends GroupCommit<UsageCommand, UsageEvent, UsageState> {
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
): Promise<{ month: string }> {
  const plan = await deps.usage.planOf(deps.readModels, request.organisationId);
  const at = deps.clock.now();
  const month = usageMonth(at);
  await deps.usage.submit(usageStream(request.organisationId, month), {
    type: 'CountInvoice', organisation_id: request.organisationId, invoice_id: request.invoiceId, month, plan,
    source: request.source, at: at.toISOString(),
  }, metadata);
  return { month };
}

/**
 * Takes back the count of a document that was surely never written (its append lost a race, or a
 * rule refused it after the count), so a client that reloads and asks again is counted once. Best
 * effort: should this fail too, the document stays counted (the safe side: never one for free).
 */
export async function releaseInvoiceCount(
  deps: Deps & Partial<Pick<Core, 'log'>>,
  request: { organisationId: string; invoiceId: string; month: string },
  metadata: EventMetadata,
): Promise<void> {
  await deps.usage
    .submit(usageStream(request.organisationId, request.month), {
      type: 'ReleaseInvoiceCount', organisation_id: request.organisationId, invoice_id: request.invoiceId, month: request.month, at: deps.clock.now().toISOString(),
    }, metadata)
    .catch((error: unknown) => deps.log?.warn({ err: error, invoice_id: request.invoiceId }, 'could not release the quota count of a document that was not written'));
}
