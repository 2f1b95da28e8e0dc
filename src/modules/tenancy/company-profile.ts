import type { Actor } from '../../../commands/shared/actor.ts';
import { NotFound } from '../../../commands/shared/access.ts';
import { requireVersion } from '../../../commands/shared/preconditions.ts';
import { companyDecider, type CompanyState } from '../../../commands/tenancy/company.ts';
import { companyStream, type CompanyProfile } from '../../../events/tenancy.ts';
import type { Core } from '../../platform/core.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'projections' | 'config'>;

/** A company as its stream stands, with its version (the stream's revision). */
export interface CompanyNow {
  state: Extract<CompanyState, { exists: true }>;
  version: number;
}

const notFound = () => new NotFound('company_not_found', 'company not found');

/** The caller's company from its stream (always current, whichever instance wrote it); 404 for another organisation's. */
export async function readCompany(deps: Pick<Core, 'store'>, actor: Actor, companyId: string): Promise<CompanyNow> {
  const { state, revision } = await readAndFold(deps.store, companyStream(companyId), companyDecider);
  if (!state.exists || state.organisation_id !== actor.organisationId) throw notFound();
  return { state, version: revision };
}

/**
 * PATCH: changes the fields given, at the version the caller read (If-Match required, as for every
 * replacement of what a client read). The answer waits for the tenancy read model, so the next
 * invoice this caller makes carries the new profile (read-your-writes).
 */
export async function updateCompanyProfile(
  deps: Deps,
  request: { actor: Actor; requestId: string; companyId: string; changes: Partial<CompanyProfile>; expectedVersion: number | undefined },
): Promise<CompanyNow> {
  // a company that is not the caller's is 404 before the precondition (commands/shared/preconditions.ts)
  await readCompany(deps, request.actor, request.companyId);
  const ifMatch = requireVersion(request.expectedVersion, 'the company version');
  const handled = await handleCommand(deps, companyStream(request.companyId), companyDecider, {
    type: 'UpdateCompanyProfile', company_id: request.companyId, organisation_id: request.actor.organisationId, changes: request.changes, at: deps.clock.now().toISOString(),
  }, { metadata: requestMetadata(request.actor, request.requestId), expected: { ifMatch } });
  if (handled.position) await deps.projections.caughtUp(handled.position, deps.config.readYourWritesTimeoutMs, ['tenancy']);
  if (!handled.state.exists) throw notFound();
  // nothing changed: the stream stays at the version the caller named
  return { state: handled.state, version: handled.events.length > 0 ? handled.version : ifMatch };
}
