// The validator runs the rule release in force at the moment it is given: a fixture release dated in
// the future (support/future-release.ts) takes over on its date.
import fs from 'node:fs';
import { expect } from 'chai';
import { Engine } from '../../src/platform/validation/engine.ts';
import { createValidator, type ValidationReport, type Validator } from '../../src/platform/validation/index.ts';
import { AFTER, artifactsWithFutureRelease, BEFORE, NEW, OLD } from './support/future-release.ts';
import { ARTIFACTS, artifact, CACHE, needArtifacts } from './support/paths.ts';

const BASE = artifact('examples/peppol-bis-3.0.21/rules/examples/base-example.xml');

const rules = (r: ValidationReport) => r.errors.map((e) => e.rule);

describe('validation: the rule release in force at the moment of validation', function () {
  this.timeout(300_000);
  before(needArtifacts);
  let dir = '';
  before(() => {
    dir = artifactsWithFutureRelease();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function provesTheSwitch(validator: () => Validator) {
    return async () => {
      const xml = fs.readFileSync(BASE);
      const now = await validator().validate(xml);
      const before = await validator().validate(xml, { at: BEFORE });
      const after = await validator().validate(xml, { at: AFTER });
      for (const old of [now, before]) {
        expect(old.release).to.equal(OLD);
        expect(old.errors).to.deep.equal([]);
        expect([old.xsd_valid, old.peppol_valid, old.slovak_valid]).to.deep.equal([true, true, true]);
      }
      expect(after.release).to.equal(NEW);
      expect(rules(after)).to.deep.equal(['FIXTURE-R001']);
      expect(after.errors[0]?.source).to.equal('peppol');
      expect([after.xsd_valid, after.peppol_valid, after.slovak_valid]).to.deep.equal([true, false, true]);
      // the new release still runs the rules it took over: a Peppol finding shows under both
      const broken = fs.readFileSync(BASE, 'utf8').replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, '<cbc:ProfileID>urn:x</cbc:ProfileID>');
      const [oldBroken, newBroken] = await Promise.all([validator().validate(broken, { at: BEFORE }), validator().validate(broken, { at: AFTER })]);
      expect(rules(oldBroken)).to.include('PEPPOL-EN16931-R007');
      expect(rules(newBroken)).to.include.members(['PEPPOL-EN16931-R007', 'FIXTURE-R001']);
      expect(rules(newBroken).filter((r) => r !== 'FIXTURE-R001')).to.deep.equal(rules(oldBroken));
    };
  }

  describe('in the worker pool', () => {
    let pool: Validator | undefined;
    before(async () => {
      pool = await createValidator({ artifactsDir: dir, cacheDir: CACHE, workers: 1 });
    });
    after(() => pool?.close());
    const validator = () => {
      if (!pool) throw new Error('validator not started');
      return pool;
    };
    it('uses 3.0.21 before the fixture release\'s date and the fixture release from it, and says which', provesTheSwitch(validator));
  });

  describe('in the calling thread', () => {
    let engine: Validator | undefined;
    before(async () => {
      engine = await createValidator({ artifactsDir: dir, cacheDir: CACHE, workers: 0 });
    });
    after(() => engine?.close());
    it('switches on the same date', provesTheSwitch(() => {
      if (!engine) throw new Error('validator not started');
      return engine;
    }));
  });

  it('loads each release once, sharing the rule sets releases have in common', async () => {
    const engine = await Engine.create({ artifactsDir: dir, cacheDir: CACHE });
    try {
      expect(engine.defaultRelease.id).to.equal(OLD);
      const [old, next, again] = [await engine.load(OLD), await engine.load(NEW), await engine.load(NEW)];
      expect(again).to.equal(next);
      expect(next.ruleSets.cen).to.equal(old.ruleSets.cen);
      expect(next.ruleSets.sk).to.equal(old.ruleSets.sk);
      expect(next.ruleSets.peppol).to.not.equal(old.ruleSets.peppol);
    } finally {
      engine.close();
    }
  });

  it('reports the release of the real artifacts folder', async () => {
    const v = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 0 });
    try {
      expect((await v.validate(fs.readFileSync(BASE), { at: AFTER })).release).to.equal(OLD);
    } finally {
      await v.close();
    }
  });
});
