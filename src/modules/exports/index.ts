// The exports module's door: what other modules, the front doors and the composition root may use of it.
export { checkExportAllowed } from './export-gate.ts';
