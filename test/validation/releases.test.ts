// Rule releases are data: the repo's manifests plus release folders dropped into the artifacts folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { packageRoot, releaseInForce, ruleReleases, SLOVAK_SCHEMATRON } from '../../src/platform/validation/artifacts.ts';
import { discoverReleases, releaseAt } from '../../src/platform/validation/releases.ts';
import { ARTIFACTS, artifact } from './support/paths.ts';

const REPO = packageRoot();

function tempArtifacts(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'releases-'));
}

function drop(dir: string, folder: string, manifest: Record<string, unknown>): void {
  fs.mkdirSync(path.join(dir, folder), { recursive: true });
  fs.writeFileSync(path.join(dir, folder, 'release.json'), JSON.stringify(manifest));
}

const manifest = (id: string, effective_from: string) => ({
  id, effective_from, schematron: { cen: `schematron/${id}/cen.sch`, peppol: `schematron/${id}/peppol.sch` },
});

describe('validation: rule releases as data', () => {
  const dirs: string[] = [];
  const temp = () => {
    const d = tempArtifacts();
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('knows 3.0.21 from the repo manifest, with its files in the artifacts folder and our Slovak rules', () => {
    const releases = ruleReleases(ARTIFACTS);
    expect(releases.map((r) => r.id)).to.deep.equal(['peppol-bis-3.0.21']);
    const r = releaseInForce(ARTIFACTS);
    expect(r.effectiveFrom).to.equal('2026-05-01T00:00:00.000Z');
    expect(r.schematron).to.deep.equal({
      cen: artifact('schematron/peppol-bis-3.0.21/rules/sch/CEN-EN16931-UBL.sch'),
      peppol: artifact('schematron/peppol-bis-3.0.21/rules/sch/PEPPOL-EN16931-UBL.sch'),
      sk: SLOVAK_SCHEMATRON,
    });
    expect(r.codeLists).to.equal(r.schematron.cen);
    expect(r.unitTests).to.deep.equal([{ configuration: 'tc434-ubl', dir: artifact('unit-tests/cen-1.3.16/test') }]);
  });

  it('picks up a release folder dropped into the artifacts folder, and chooses by date', () => {
    const dir = temp();
    drop(dir, 'schematron/peppol-bis-9.0.0', manifest('peppol-bis-9.0.0', '2031-02-24'));
    drop(dir, 'peppol-bis-8.0.0', manifest('peppol-bis-8.0.0', '2030-01-01T12:00:00+01:00'));
    const releases = discoverReleases(dir, REPO);
    expect(releases.map((r) => r.id)).to.deep.equal(['peppol-bis-3.0.21', 'peppol-bis-8.0.0', 'peppol-bis-9.0.0']);
    expect(releases[2]?.schematron.cen).to.equal(path.join(dir, 'schematron/peppol-bis-9.0.0/cen.sch'));
    const at = (iso: string) => releaseAt(releases, new Date(iso)).id;
    expect(at('2026-11-29T00:00:00Z')).to.equal('peppol-bis-3.0.21');
    expect(at('2030-01-01T10:59:59.999Z')).to.equal('peppol-bis-3.0.21');
    expect(at('2030-01-01T11:00:00Z')).to.equal('peppol-bis-8.0.0');
    expect(at('2031-02-23T23:59:59.999Z')).to.equal('peppol-bis-8.0.0');
    expect(at('2031-02-24T00:00:00Z')).to.equal('peppol-bis-9.0.0');
    // before the oldest release: the oldest, not a refusal
    expect(at('2020-01-01T00:00:00Z')).to.equal('peppol-bis-3.0.21');
  });

  it('lets a dropped manifest replace the repo manifest of the same release', () => {
    const dir = temp();
    drop(dir, 'schematron/peppol-bis-3.0.21', manifest('peppol-bis-3.0.21', '2026-05-28'));
    const [only, ...rest] = discoverReleases(dir, REPO);
    expect(rest).to.deep.equal([]);
    expect(only?.effectiveFrom).to.equal('2026-05-28T00:00:00.000Z');
    expect(only?.manifest).to.equal(path.join(dir, 'schematron/peppol-bis-3.0.21/release.json'));
  });

  it('refuses a manifest it cannot read as a release, naming the file', () => {
    const noZone = temp();
    drop(noZone, 'r', manifest('r', '2030-01-01T00:00:00'));
    expect(() => discoverReleases(noZone, REPO)).to.throw(/r[/\\]release\.json: "effective_from"/);
    const noPeppol = temp();
    drop(noPeppol, 'r', { id: 'r', effective_from: '2030-01-01', schematron: { cen: 'a.sch' } });
    expect(() => discoverReleases(noPeppol, REPO)).to.throw(/"peppol" must be/);
  });

  it('refuses two releases in force from the same instant', () => {
    const dir = temp();
    drop(dir, 'a', manifest('a', '2030-01-01'));
    drop(dir, 'b', manifest('b', '2030-01-01T01:00:00+01:00'));
    expect(() => discoverReleases(dir, REPO)).to.throw(/both in force from 2030-01-01T00:00:00.000Z/);
  });
});
