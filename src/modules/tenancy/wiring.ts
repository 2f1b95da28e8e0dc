import type { Core } from '../../platform/core.ts';
import { companyRoutes } from './company-routes.ts';
import { workspaceRoutes } from './routes.ts';
import type { Module } from '../module.ts';

/**
 * Workspaces as callers see them: the companies of one, with the caller's role (issue 19 part 3),
 * from the tenancy read model; and a company's profile, read and changed (issue 40).
 */
export function tenancyModule(deps: Pick<Core, 'readModels' | 'store' | 'ids' | 'clock' | 'projections' | 'config'>): Module {
  return { routes: [...workspaceRoutes(deps), ...companyRoutes(deps)], projectors: [], reactors: [] };
}
