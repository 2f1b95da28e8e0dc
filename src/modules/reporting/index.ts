// Peppol Reporting: the module's door.
export { buildReports, type MonthlyReports } from './build.ts';
export { createReportValidator, type ReportFinding, type ReportValidation, type ReportValidator } from './validate.ts';
export { eusrXml, tsrXml, type Reporter } from './xml.ts';
export type { ReportKind } from './artifacts.ts';
export { previewReports, type CheckedReports } from './preview.ts';
export { applyReportMls, matchReportMls, reportMlsMatcher, type ReportMlsInput, type ReportMlsMatch } from './mls.ts';
export { readMonth } from './month-stream.ts';
export { PEPPOL_REPORTING_MONTHLY } from './schedule.ts';
