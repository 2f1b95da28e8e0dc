import type { Core } from '../../platform/core.ts';
import { workspaceRoutes } from './routes.ts';
import type { Module } from '../module.ts';

/** Workspaces as callers see them: the companies of one, with the caller's role (issue 19 part 3). Reads the tenancy read model. */
export function tenancyModule(deps: Pick<Core, 'readModels'>): Module {
  return { routes: workspaceRoutes(deps), projectors: [], reactors: [] };
}
