// Our Slovak Schematron: every rule has an id, a flag, a good and a bad document in schemas/sk/tests.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SLOVAK_SCHEMATRON } from '../../src/platform/validation/artifacts.ts';
import { Engine } from '../../src/platform/validation/engine.ts';
import { parseSchematron } from '../../src/platform/validation/schematron/parse.ts';
import type { ValidationReport } from '../../src/platform/validation/types.ts';
import { ARTIFACTS, CACHE, needArtifacts } from './support/paths.ts';

const TESTS = path.join(path.dirname(SLOVAK_SCHEMATRON), 'tests');
const checks = parseSchematron(fs.readFileSync(SLOVAK_SCHEMATRON)).patterns.flatMap((p) => p.rules.flatMap((r) => r.checks));

describe('validation: Slovak rules (schemas/sk/SK-UBL.sch)', function () {
  this.timeout(300_000);
  before(needArtifacts);
  let engine: Engine | undefined;
  const run = (file: string): ValidationReport => {
    if (!engine) throw new Error('engine not started');
    return engine.validate(fs.readFileSync(file));
  };
  before(async () => {
    engine = await Engine.create({ artifactsDir: ARTIFACTS, cacheDir: CACHE });
  });
  after(() => engine?.close());

  it('gives every rule a unique SK id, a flag and a bad test document', () => {
    const ids = checks.map((c) => c.id);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const c of checks) {
      // never SK-R-nnn: Peppol BIS 3.0.22 owns those ids (docs/validation.md, "Slovak rules")
      expect(c.id).to.match(/^SK-(BR|SVC)-\d\d+$/);
      expect(['fatal', 'warning']).to.include(c.flag);
      expect(fs.existsSync(path.join(TESTS, 'bad', `${c.id}.xml`)), `bad document for ${c.id}`).to.equal(true);
    }
  });

  for (const name of fs.readdirSync(path.join(TESTS, 'good'))) {
    it(`accepts good/${name} under XSD, CEN, Peppol and every SK rule`, () => {
      const report = run(path.join(TESTS, 'good', name));
      expect([...report.errors, ...report.warnings].map((f) => `${f.rule}: ${f.message}`)).to.deep.equal([]);
      expect([report.xsd_valid, report.peppol_valid, report.slovak_valid]).to.deep.equal([true, true, true]);
    });
  }

  for (const check of checks) {
    it(`fires ${check.id} (${check.flag}) on bad/${check.id}.xml and no other SK rule`, () => {
      const report = run(path.join(TESTS, 'bad', `${check.id}.xml`));
      const sk = [...report.errors, ...report.warnings].filter((f) => f.source === 'sk');
      expect(sk.map((f) => `${f.rule}/${f.flag}`)).to.deep.equal([`${check.id}/${check.flag}`]);
      expect(report.xsd_valid).to.equal(true);
      expect(report.slovak_valid).to.equal(check.flag !== 'fatal');
    });
  }
});
