// Our EUSR and TSR checks against the publisher: every official example, the reports we build, and
// single-edit variants of ours give the findings that the published XSLT (beside each .sch) gives
// under Java Saxon-HE 9.9.1.5 (Debian's libsaxonhe-java), in the same order. JAVA below was recorded
// by running that XSLT on these very documents (test/validation/support/java/SvrlFindings.java);
// where Java Saxon-HE is installed (CI installs it) the recording is checked against a live run.
// The variants that write a subset or subtotal twice break the key()-based uniqueness rules.
import { expect } from 'chai';
import { reportXsltFile, type ReportKind } from '../../src/modules/reporting/artifacts.ts';
import { createReportValidator, type ReportValidator } from '../../src/modules/reporting/validate.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { javaSaxonMissing, javaSvrlFindings } from '../validation/support/java-saxon.ts';
import { ARTIFACTS, CACHE, needArtifacts } from '../validation/support/paths.ts';
import { reportDocuments } from './support/variants.ts';

const JAVA: Record<ReportKind, [name: string, findings: string[]][]> = {
  eusr: [
    ['end-user-statistics-reporting-1.xml', []],
    ['end-user-statistics-reporting-2.xml', []],
    ['end-user-statistics-reporting-empty.xml', []],
    ['end-user-statistics-reporting-minimal.xml', []],
    ['eusr-generated-1.xml', []],
    ['eusr-good-template.xml', []],
    ['our eusr of a month with traffic', []],
    ['our zero eusr', []],
    ['a PerDT-PR subset twice', ['SCH-EUSR-13:fatal', 'SCH-EUSR-13:fatal']],
    ['a PerDT-PR-EUC subset twice', ['SCH-EUSR-29:fatal', 'SCH-EUSR-29:fatal']],
    ['a PerDT-EUC subset twice', ['SCH-EUSR-38:fatal', 'SCH-EUSR-38:fatal']],
    ['a PerEUC subset twice', ['SCH-EUSR-40:fatal', 'SCH-EUSR-40:fatal']],
    ['full set: either larger than sending plus receiving', ['SCH-EUSR-19:fatal']],
    ['full set: either smaller than sending', ['SCH-EUSR-22:fatal', 'SCH-EUSR-20:fatal', 'SCH-EUSR-21:fatal']],
    ['a reporter that is no seat id', ['SCH-EUSR-08:fatal']],
    ['end before start', ['SCH-EUSR-18:fatal']],
    ['a subset of an unknown type', ['SCH-EUSR-14:fatal']],
    ['a country code not in the list', ['SCH-EUSR-30:fatal']],
    ['wrong CustomizationID', ['SCH-EUSR-01:fatal']],
  ],
  tsr: [
    ['transaction-statistics-2.xml', []],
    ['transaction-statistics-3.xml', []],
    ['transaction-statistics-4.xml', []],
    ['transaction-statistics-minimal.xml', []],
    ['our tsr of a month with traffic', []],
    ['our zero tsr', []],
    ['a PerTP subtotal twice', ['SCH-TSR-04:fatal', 'SCH-TSR-05:fatal', 'SCH-TSR-06:fatal', 'SCH-TSR-06:fatal']],
    ['a PerSP-DT-PR subtotal twice', ['SCH-TSR-09:fatal', 'SCH-TSR-10:fatal', 'SCH-TSR-10:fatal']],
    ['a PerSP-DT-PR-CC subtotal twice', ['SCH-TSR-12:fatal', 'SCH-TSR-14:fatal', 'SCH-TSR-14:fatal']],
    ['incoming total off by one', ['SCH-TSR-04:fatal', 'SCH-TSR-08:fatal', 'SCH-TSR-12:fatal']],
    ['a reporter that is no seat id', ['SCH-TSR-18:fatal']],
    ['a service provider that is no seat id', ['SCH-TSR-19:fatal']],
    ['a sender country not in the list', ['SCH-TSR-20:fatal']],
    ['a subtotal of an unknown type', ['SCH-TSR-03:fatal', 'SCH-TSR-04:fatal', 'SCH-TSR-05:fatal', 'SCH-TSR-39:fatal', 'SCH-TSR-37:fatal']],
    ['wrong ProfileID', ['SCH-TSR-02:fatal']],
  ],
};

describeDatabaseFree('Peppol Reporting: our checks give what the published XSLT gives under Java Saxon-HE', function () {
  this.timeout(300_000);
  before(needArtifacts);
  let validator: ReportValidator;
  before(async () => {
    validator = await createReportValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE });
  });
  after(() => validator?.close());

  for (const kind of ['eusr', 'tsr'] as const) {
    it(`${kind}: covers every official example (a new one needs its Java result recorded)`, () => {
      expect(reportDocuments(kind).map((d) => d.name)).to.deep.equal(JAVA[kind].map(([name]) => name));
    });

    it(`${kind}: the same Schematron findings, in the same order`, () => {
      const ours = reportDocuments(kind).map((d) => {
        const report = validator.validate(kind, d.xml);
        const schematron = [...report.errors, ...report.warnings].filter((f) => f.source === kind);
        return [d.name, schematron.map((f) => `${f.rule}:${f.flag}`)];
      });
      expect(ours).to.deep.equal(JAVA[kind]);
    });

    it(`${kind}: Java Saxon-HE, run now, gives the recorded findings`, function () {
      const missing = javaSaxonMissing();
      if (missing) {
        if (process.env['CI']) throw new Error(missing);
        console.warn(`  (skipped) ${missing}`);
        this.skip();
      }
      const documents = reportDocuments(kind);
      const java = javaSvrlFindings(reportXsltFile(ARTIFACTS, kind), documents);
      expect(documents.map((d) => [d.name, java.get(d.name)])).to.deep.equal(JAVA[kind]);
    });
  }
});
