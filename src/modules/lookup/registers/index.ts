import type { DataSource } from 'typeorm';
import type { LookupConfig } from '../../../platform/config.ts';
import type { CompanyRegistry } from './port.ts';
import { registerUzRegistry } from './registeruz.ts';
import { rpoRegistry } from './rpo.ts';
import { sandboxRegistry } from './sandbox/index.ts';
import { registeredCompaniesOf } from './sandbox/registered.ts';
import { viesRegistry } from './vies.ts';

export { companyLookupService, type CompanyLookupService } from './company-lookup.ts';
export type { CompanyRegistry } from './port.ts';

/** The registers COMPANY_REGISTRY names: the sandbox's fixtures (default), or RPO, RegisterUZ and VIES over HTTPS. */
export function configuredRegistries(config: LookupConfig, readModels: DataSource): CompanyRegistry[] {
  if (config.registry === 'sandbox') return sandboxRegistry(registeredCompaniesOf(readModels)).registries;
  return [rpoRegistry({ baseUrl: config.rpoUrl }), registerUzRegistry({ baseUrl: config.registeruzUrl }), viesRegistry({ baseUrl: config.viesUrl })];
}
