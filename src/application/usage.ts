import { usageDecider, usageMonth, type CountInvoice, type UsageState } from '../../commands/limits/usage.ts';
import { usageStream, type InvoiceCounted, type UsageSource } from '../../events/usage.ts';
import { findOrganisationPlan } from '../../projections/tenancy/queries.ts';
import type { EventMetadata, EventStore } from '../eventstore/port.ts';
import type { Ids } from '../ports/ids.ts';
import type { Core } from '../core.ts';
import { GroupCommit } from './group-commit.ts';

/** An organisation's month is one stream that every send of the organisation counts on: group-committed. */
export type UsageCounts = GroupCommit<CountInvoice, InvoiceCounted, UsageState>;
export const usageCounts = (deps: { store: EventStore; ids: Ids }): UsageCounts => new GroupCommit(deps, usageDecider);

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
  const plan = (await findOrganisationPlan(deps.readModels, request.organisationId)) ?? 'unknown';
  const at = deps.clock.now();
  const month = usageMonth(at);
  await deps.usage.submit(usageStream(request.organisationId, month), {
    type: 'CountInvoice', organisation_id: request.organisationId, invoice_id: request.invoiceId, month, plan,
    source: request.source, at: at.toISOString(),
  }, metadata);
}
