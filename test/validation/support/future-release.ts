// A temporary artifacts folder with a rule release dated in the future: the real XSD and 3.0.21
// (symlinked) and a fixture release beside them, 3.0.21's rules plus one of its own that always fires.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifact } from './paths.ts';

export const OLD = 'peppol-bis-3.0.21';
export const NEW = 'fixture-3.0.99';
export const EFFECTIVE = '2099-02-24T00:00:00.000Z';
export const BEFORE = new Date(Date.parse(EFFECTIVE) - 1);
export const AFTER = new Date(EFFECTIVE);
/** The one rule only the fixture release has. */
export const FIXTURE_RULE_ID = 'FIXTURE-R001';
const FIXTURE_RULE = `
  <pattern id="fixture-release">
    <rule context="/*">
      <assert id="FIXTURE-R001" flag="fatal" test="false()">[FIXTURE-R001]-Only the fixture release has this rule.</assert>
    </rule>
  </pattern>
</schema>`;

/** Makes the folder (the caller removes it). */
export function artifactsWithFutureRelease(): string {
  return artifactsWithRelease({ id: NEW, effective: EFFECTIVE, rule: FIXTURE_RULE });
}

/**
 * A temporary artifacts folder: every official folder symlinked, and beside 3.0.21 a fixture release
 * `id` in force from `effective`, 3.0.21's rules plus the Schematron `rule` (patterns, then `</schema>`).
 */
export function artifactsWithRelease(release: { id: string; effective: string; rule: string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-switch-'));
  for (const entry of fs.readdirSync(artifact())) {
    if (entry !== 'schematron') fs.symlinkSync(artifact(entry), path.join(dir, entry));
  }
  fs.mkdirSync(path.join(dir, 'schematron'));
  for (const entry of fs.readdirSync(artifact('schematron'))) fs.symlinkSync(artifact('schematron', entry), path.join(dir, 'schematron', entry));
  fs.mkdirSync(path.join(dir, 'schematron', release.id), { recursive: true });
  const peppol = fs.readFileSync(artifact('schematron', OLD, 'rules/sch/PEPPOL-EN16931-UBL.sch'), 'utf8');
  fs.writeFileSync(path.join(dir, 'schematron', release.id, 'PEPPOL-EN16931-UBL.sch'), peppol.replace('</schema>', release.rule));
  fs.writeFileSync(path.join(dir, 'schematron', release.id, 'release.json'), JSON.stringify({
    id: release.id,
    effective_from: release.effective.slice(0, 10),
    schematron: { cen: `schematron/${OLD}/rules/sch/CEN-EN16931-UBL.sch`, peppol: `schematron/${release.id}/PEPPOL-EN16931-UBL.sch` },
  }));
  return dir;
}
