// The lookup module's door: what other modules, the front doors and the composition root may use of it.
export type { CompanyRegistry } from './registers/index.ts';
