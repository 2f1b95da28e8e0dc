import { CustomerEntity } from '../../../projections/customer-directory/entity.ts';
import { customerDirectory } from '../../../projections/customer-directory/projector.ts';
import type { Core } from '../../platform/core.ts';
import { customerRoutes } from './routes.ts';
import type { Module } from '../module.ts';

/** The customer directory: buyers a company invoices, organisation-wide or of one company. */
export function customersModule(deps: Core): Module {
  return { routes: customerRoutes(deps), projectors: [customerDirectory], reactors: [], entities: [CustomerEntity] };
}
