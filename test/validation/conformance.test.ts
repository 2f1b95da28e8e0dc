// Conformance of our engine with the official rules (SOURCES.md): each unit-test set against the rules
// of its own release, and every official example valid. Prints the counts.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ruleReleases } from '../../src/platform/validation/artifacts.ts';
import { Engine } from '../../src/platform/validation/engine.ts';
import { loadRuleSet, type RuleSet } from '../../src/platform/validation/schematron/ruleset.ts';
import { artifact, ARTIFACTS, CACHE, needArtifacts } from './support/paths.ts';
import { checkExpectation, listXmlFiles, readUnitTests } from './support/unit-tests.ts';

interface Suite {
  name: string;
  configurations: string[];
  sch: string;
  set: 'cen' | 'peppol';
  dir: string;
  reference: string;
  /** Expectations the reference misses too (a rule whose severity changed between releases). */
  knownMisses?: RegExp;
  misses?: number;
}

/** Suites of releases the service does not run; each release's own unit tests come from its manifest (below). */
const SUITES: Suite[] = [
  {
    name: 'Peppol 3.0.19 unit tests on Peppol 3.0.19 rules',
    configurations: ['peppolbis-en16931-base-3.0-ubl', 'peppolbis-en16931-01-3.0-ubl-invoice'],
    sch: artifact('schematron/peppol-bis-3.0.19/rules/sch/PEPPOL-EN16931-UBL.sch'),
    set: 'peppol',
    dir: artifact('unit-tests/peppol-bis-3.0.19'),
    reference: '552/552',
  },
  {
    // the rules the service runs, against the newest complete Peppol unit tests (SOURCES.md)
    name: 'Peppol 3.0.19 unit tests on Peppol 3.0.21 rules',
    configurations: ['peppolbis-en16931-base-3.0-ubl', 'peppolbis-en16931-01-3.0-ubl-invoice'],
    sch: artifact('schematron/peppol-bis-3.0.21/rules/sch/PEPPOL-EN16931-UBL.sch'),
    set: 'peppol',
    dir: artifact('unit-tests/peppol-bis-3.0.19'),
    reference: '549/552, the 3 DK-R-003 cases whose severity changed to fatal in 3.0.21',
    knownMisses: /: DK-R-003 did not fire as warning/,
    misses: 3,
  },
];

const counts: string[] = [];

/** The rule set a VEFA configuration tests. */
function setOf(configuration: string): 'cen' | 'peppol' {
  if (configuration === 'tc434-ubl') return 'cen';
  if (configuration.startsWith('peppolbis-')) return 'peppol';
  throw new Error(`unit-test configuration ${configuration}: which rule set it tests is not known`);
}

/** Runs every unit test of `dir` on `rules`; the expectations met, the total, and what failed. */
function runUnitTests(rules: RuleSet, dir: string, configurations: string[]) {
  const files = listXmlFiles(dir);
  let met = 0;
  let total = 0;
  let tests = 0;
  const failures: string[] = [];
  for (const file of files) {
    for (const test of readUnitTests(file)) {
      expect(configurations, file).to.include(test.configuration);
      tests++;
      const findings = rules.run(test.xml);
      for (const e of test.expectations) {
        total++;
        const why = checkExpectation(e, findings);
        if (why === null) met++;
        else failures.push(`${path.relative(dir, file)} #${test.index + 1}: ${why}`);
      }
    }
  }
  return { met, total, tests, files: files.length, failures };
}

describe('validation: conformance', () => {
  before(needArtifacts);
  after(() => console.log(`\n  conformance counts:\n${counts.map((c) => `    ${c}`).join('\n')}\n`));

describe('validation: conformance with the official rule unit tests', function () {
  this.timeout(600_000);

  for (const suite of SUITES) {
    it(suite.name, async () => {
      const rules: RuleSet = await loadRuleSet(suite.sch, suite.set, CACHE);
      const { met, total, tests, files, failures } = runUnitTests(rules, suite.dir, suite.configurations);
      counts.push(`${suite.name}: ${met}/${total} expectations (${files} files, ${tests} tests; reference ${suite.reference})`);
      const known = suite.knownMisses;
      const unexpected = known ? failures.filter((f) => !known.test(f)) : failures;
      expect(unexpected).to.deep.equal([]);
      expect(failures.length - unexpected.length).to.equal(suite.misses ?? 0);
    });
  }
});

describe('validation: every official example is valid', function () {
  this.timeout(300_000);
  let engine: Engine;
  before(async () => {
    engine = await Engine.create({ artifactsDir: ARTIFACTS, cacheDir: CACHE });
  });
  after(() => engine.close());

  // the release's own examples are checked under it (below); these older ones must stay valid under the release in force
  const dirs = [
    'examples/peppol-bis-3.0.19/rules/examples',
    'examples/peppol-bis-3.0.19/rules/snippets',
    'examples/peppol-bis-3.0.19/rules/national-examples',
  ];
  // SOURCES.md: both Greek national examples are XSD-invalid (element order); the TaxRepresentative one
  // also fails BR-06.
  const xsdInvalid = new Set(['GR-base-example-correct.xml', 'GR-base-example-TaxRepresentative.xml']);
  const schematronInvalid = new Set(['GR-base-example-TaxRepresentative.xml']);

  it('passes XSD and the CEN + Peppol rules in force with no fatal finding', () => {
    let valid = 0;
    const files = dirs.flatMap((d) => listXmlFiles(artifact(d)));
    const problems: string[] = [];
    for (const file of files) {
      const name = path.basename(file);
      const report = engine.validate(fs.readFileSync(file));
      const expectXsd = !xsdInvalid.has(name);
      const expectRules = !schematronInvalid.has(name);
      if (report.xsd_valid !== expectXsd) problems.push(`${name}: xsd_valid ${String(report.xsd_valid)}`);
      if (report.peppol_valid !== expectRules) {
        problems.push(`${name}: peppol_valid ${String(report.peppol_valid)} ${report.errors.map((e) => e.rule).join(',')}`);
      }
      if (expectXsd && expectRules && report.xsd_valid && report.peppol_valid) valid++;
    }
    counts.push(`official examples: ${valid}/${files.length} valid (+${xsdInvalid.size} known-invalid Greek examples behave as documented)`);
    expect(problems).to.deep.equal([]);
  });
});

describe('validation: each rule release against the unit tests and examples its manifest lists', function () {
  this.timeout(600_000);
  // a release dropped into the artifacts folder brings its tests with it: nothing to add here
  const releases = fs.existsSync(ARTIFACTS) ? ruleReleases(ARTIFACTS) : [];
  let engine: Engine | undefined;
  before(async () => {
    engine = await Engine.create({ artifactsDir: ARTIFACTS, cacheDir: CACHE, releases });
  });
  after(() => engine?.close());

  for (const release of releases) {
    for (const unit of release.unitTests) {
      it(`${release.id}: unit tests ${path.relative(ARTIFACTS, unit.dir)} (${unit.configuration})`, async () => {
        const set = setOf(unit.configuration);
        const rules: RuleSet = await loadRuleSet(release.schematron[set], set, CACHE);
        const { met, total, tests, files, failures } = runUnitTests(rules, unit.dir, [unit.configuration]);
        counts.push(`${release.id} ${set} rules, ${path.relative(ARTIFACTS, unit.dir)}: ${met}/${total} expectations (${files} files, ${tests} tests)`);
        expect(total, `no unit tests in ${unit.dir}`).to.be.greaterThan(0);
        expect(failures).to.deep.equal([]);
      });
    }
    if (release.examples.length > 0) {
      it(`${release.id}: its examples pass XSD and its CEN + Peppol rules with no fatal finding`, async () => {
        if (!engine) throw new Error('engine not started');
        await engine.load(release.id);
        const files = release.examples.flatMap((d) => listXmlFiles(d));
        expect(files, `no examples in ${release.examples.join(', ')}`).to.not.deep.equal([]);
        const problems: string[] = [];
        for (const file of files) {
          const report = engine.validate(fs.readFileSync(file), release.id);
          if (report.release !== release.id || !report.xsd_valid || !report.peppol_valid) {
            problems.push(`${path.basename(file)}: ${report.release} xsd_valid ${String(report.xsd_valid)} peppol_valid ${String(report.peppol_valid)} ${report.errors.map((e) => e.rule).join(',')}`);
          }
        }
        counts.push(`${release.id} examples: ${files.length - problems.length}/${files.length} valid`);
        expect(problems).to.deep.equal([]);
      });
    }
  }
});
});
