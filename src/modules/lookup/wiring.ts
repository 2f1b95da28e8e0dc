import type { Core } from '../../platform/core.ts';
import { lookupRoutes } from './routes.ts';
import { companyLookupService, configuredRegistries, type CompanyRegistry } from './registers/index.ts';
import type { Module } from '../module.ts';

type LookupModuleDeps = Pick<Core, 'config' | 'clock' | 'log' | 'readModels'> & {
  /** the registers to ask; by default the ones COMPANY_REGISTRY names (a test passes a sandbox whose sources it can switch off) */
  registries?: CompanyRegistry[];
};

/** Company lookup by IČO and search by name (issue 19 part 2, docs/lookup.md): reads registers, keeps no read model. */
export function lookupModule(deps: LookupModuleDeps): Module {
  const { lookup: config } = deps.config;
  const lookup = companyLookupService({
    registries: deps.registries ?? configuredRegistries(config, deps.readModels),
    clock: deps.clock,
    log: deps.log.child({ module: 'lookup' }),
    timeoutsMs: config.timeoutsMs,
    cacheTtlMs: config.cacheTtlMs,
    cacheMaxEntries: config.cacheMaxEntries,
  });
  return { routes: lookupRoutes({ lookup }), projectors: [], reactors: [] };
}
