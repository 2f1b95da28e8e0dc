// Our MLS validator against the publisher: every official MLS example and 25 single-edit variants
// give the failed asserts that the published XSLT (peppol-mls-1.0.1.xslt, beside the .sch) gives
// under Java Saxon-HE 9.9.1.5 (Debian's libsaxonhe-java), in the same order. JAVA below was recorded
// by running that XSLT on these very documents (s9api, one transform per document, every
// svrl:failed-assert's @id; all were flag="fatal", no successful-report); where Java Saxon-HE is
// installed (CI installs it) the recording is checked against a live run. A sibling of
// test/validation/compiled-equivalence.test.ts: the compiled engine also gives SaxonJS's findings here.
import { expect } from 'chai';
import { createMlsValidator, mlsSchematronFile, type MlsValidator } from '../../src/modules/mls/index.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { compare, loadPair } from '../validation/support/equivalence.ts';
import { javaSaxonMissing, javaSvrlFindings } from '../validation/support/java-saxon.ts';
import { ARTIFACTS, CACHE, artifact, needArtifacts } from '../validation/support/paths.ts';
import { mlsExample, mlsExampleFiles, mlsVariants } from './support.ts';

const JAVA: [name: string, failedAsserts: string[]][] = [
  ['MessageLevelStatus_Example_AB.xml', []],
  ['MessageLevelStatus_Example_AB2.xml', []],
  ['MessageLevelStatus_Example_AB3.xml', []],
  ['MessageLevelStatus_Example_AP.xml', []],
  ['MessageLevelStatus_Example_RE.xml', []],
  ['MessageLevelStatus_Example_RE2.xml', []],
  ['MessageLevelStatus_Example_RE3.xml', []],
  ['MessageLevelStatus_Example_RE4.xml', []],
  ['snippet-ab.xml', []],
  ['snippet-ap.xml', []],
  ['snippet-re.xml', []],
  ['wrong CustomizationID', ['SCH-MLS-01']],
  ['wrong ProfileID', ['SCH-MLS-02']],
  ['empty ID', ['SCH-MLS-03']],
  ['IssueDate with a zone', ['SCH-MLS-04']],
  ['IssueTime without a zone', ['SCH-MLS-06']],
  ['no IssueTime', ['SCH-MLS-05', 'SCH-MLS-06']],
  ['sender not an SPID', ['SCH-MLS-09']],
  ['sender SPID suffix in lower case (1.0.1 is case-insensitive)', []],
  ['sender scheme not 0242', ['SCH-MLS-11']],
  ['sender without scheme', ['SCH-MLS-10', 'SCH-MLS-11']],
  ['empty receiver', ['SCH-MLS-13', 'SCH-MLS-14']],
  ['no ReceiverParty', ['SCH-MLS-12', 'SCH-MLS-13', 'SCH-MLS-14', 'SCH-MLS-15', 'SCH-MLS-16']],
  ['response code not in the list', ['SCH-MLS-19']],
  ['two DocumentResponses', ['SCH-MLS-17']],
  ['no DocumentReference', ['SCH-MLS-22']],
  ['empty DocumentReference ID', ['SCH-MLS-26']],
  ['AP with a failure issue', ['SCH-MLS-25']],
  ['RE without description', ['SCH-MLS-20', 'SCH-MLS-21']],
  ['RE with an empty description', ['SCH-MLS-21']],
  ['RE without issues', ['SCH-MLS-23', 'SCH-MLS-24']],
  ['RE with only a warning', ['SCH-MLS-24']],
  ['issue without location', ['SCH-MLS-27']],
  ['issue without description', ['SCH-MLS-28', 'SCH-MLS-29']],
  ['issue without status', ['SCH-MLS-24', 'SCH-MLS-30']],
  ['status reason not in the list', ['SCH-MLS-24', 'SCH-MLS-31']],
];

describeDatabaseFree('MLS: our validator gives what the published XSLT gives under Java Saxon-HE', function () {
  this.timeout(300_000);
  before(needArtifacts);

  const documents = () => [...mlsExampleFiles().map((f) => ({ name: f, xml: mlsExample(f) })), ...mlsVariants()];
  let validator: MlsValidator;
  before(async () => {
    validator = await createMlsValidator();
  });

  it('covers every official example (a new one needs its Java result recorded)', () => {
    expect(documents().map((d) => d.name)).to.deep.equal(JAVA.map(([name]) => name));
  });

  it('fails the same asserts, in the same order, all fatal', () => {
    const ours = documents().map((d) => {
      const report = validator.validate(d.xml);
      expect(report.warnings, d.name).to.deep.equal([]);
      expect(report.valid, d.name).to.equal(report.errors.length === 0);
      expect(report.errors.every((f) => f.flag === 'fatal' && f.source === 'mls'), d.name).to.equal(true);
      return [d.name, report.errors.map((f) => f.rule)];
    });
    expect(ours).to.deep.equal(JAVA);
  });

  it('the compiled engine gives the SaxonJS findings, byte for byte, and no rule falls back', async () => {
    const pair = await loadPair({ label: 'MLS 1.0.1', set: 'mls', file: mlsSchematronFile(ARTIFACTS), unitTests: null, kind: 'invoice' }, CACHE);
    const result = compare(pair, documents());
    expect(result.fallbackRules, 'rules the compiler could not translate').to.equal(0);
    expect(result.internalErrors, result.lastFallbackReason ?? '').to.equal(0);
    expect(result.differences, result.differences.join('\n')).to.deep.equal([]);
    expect(result.findings).to.equal(JAVA.flatMap(([, rules]) => rules).length);
  });

  it('Java Saxon-HE, run now, gives the recorded failed asserts, all fatal', function () {
    const missing = javaSaxonMissing();
    if (missing) {
      if (process.env['CI']) throw new Error(missing);
      console.warn(`  (skipped) ${missing}`);
      this.skip();
    }
    const java = javaSvrlFindings(artifact('peppol-mls-1.0.1/trn-mls/schematron/peppol-mls-1.0.1.xslt'), documents());
    expect(documents().map((d) => [d.name, java.get(d.name)])).to.deep.equal(JAVA.map(([name, rules]) => [name, rules.map((r) => `${r}:fatal`)]));
  });
});
