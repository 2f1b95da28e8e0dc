import { peppolReporting } from '../../../projections/peppol-reporting/projector.ts';
import type { Module } from '../module.ts';

/**
 * Peppol Reporting (EUSR and TSR, monthly to OpenPeppol): for now the read model of what our
 * Access Point sent and received; the reports are built on demand (`npm run cli -- reporting preview`).
 */
export function reportingModule(): Module {
  return { routes: [], projectors: [peppolReporting], reactors: [] };
}
