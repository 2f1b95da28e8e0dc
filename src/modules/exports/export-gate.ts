import { EXPORT_FEATURES, requireExport, type ExportKind } from '../../../commands/exports/gate.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { findOrganisationPlan } from '../../../projections/tenancy/queries.ts';
import type { Core } from '../../platform/core.ts';

/**
 * The plan gate of an export (commands/exports/gate.ts), on the organisation's plan as it is now
 * (whatever plan a token was issued under), for every kind of caller alike. An export no plan
 * feature gates costs no lookup.
 */
export async function checkExportAllowed(deps: Pick<Core, 'readModels'>, actor: Actor, kind: ExportKind): Promise<void> {
  if (EXPORT_FEATURES[kind] === null) return;
  requireExport(await findOrganisationPlan(deps.readModels, actor.organisationId), kind);
}
