import type { DataSource } from 'typeorm';
import type { ReportPeriod } from '../../../commands/reporting/period.ts';
import { reportingItems } from '../../../projections/peppol-reporting/queries.ts';
import type { ReportKind } from './artifacts.ts';
import { buildReports, type MonthlyReports } from './build.ts';
import type { ReportValidation, ReportValidator } from './validate.ts';

export interface CheckedReports {
  reports: MonthlyReports;
  checks: Record<ReportKind, ReportValidation>;
}

/** The month's EUSR and TSR from the reporting read model as it stands, each checked with its official rules. */
export async function previewReports(readModels: DataSource, period: ReportPeriod, seatId: string, validator: ReportValidator): Promise<CheckedReports> {
  const items = await reportingItems(readModels, period.from, period.to);
  const reports = buildReports(items, period, { seatId });
  return { reports, checks: { eusr: validator.validate('eusr', reports.eusr), tsr: validator.validate('tsr', reports.tsr) } };
}
