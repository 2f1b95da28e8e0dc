// Where the Peppol Reporting rules live: below the validation artifacts directory (configuration,
// like the invoice rules: VALIDATION_ARTIFACTS_DIR, default ../shared/validation).
import path from 'node:path';

export type ReportKind = 'eusr' | 'tsr';

const FILES: Record<ReportKind, { dir: string; xsd: string; sch: string }> = {
  eusr: { dir: 'eusr-1.1.5', xsd: 'peppol-end-user-statistics-reporting-1.1.xsd', sch: 'peppol-end-user-statistics-reporting-1.1.5.sch' },
  tsr: { dir: 'tsr-1.0.5', xsd: 'peppol-transaction-statistics-reporting-1.0.1.xsd', sch: 'peppol-transaction-statistics-reporting-1.0.5.sch' },
};

const base = (artifactsDir: string, kind: ReportKind) => path.join(artifactsDir, 'peppol-reporting', FILES[kind].dir);

export const reportXsdFile = (artifactsDir: string, kind: ReportKind) => path.join(base(artifactsDir, kind), 'xsd', FILES[kind].xsd);
export const reportSchematronFile = (artifactsDir: string, kind: ReportKind) => path.join(base(artifactsDir, kind), 'sch', FILES[kind].sch);
/** The published XSLT of the same rules (what Java Saxon-HE runs in the equivalence checks). */
export const reportXsltFile = (artifactsDir: string, kind: ReportKind) =>
  path.join(base(artifactsDir, kind), 'xslt', FILES[kind].sch.replace(/\.sch$/, '.xslt'));
export const reportExamplesDir = (artifactsDir: string, kind: ReportKind) => path.join(base(artifactsDir, kind), 'examples');
