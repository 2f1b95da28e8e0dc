// Where the rule files live. The official artifacts are configuration (VALIDATION_ARTIFACTS_DIR,
// fetched by scripts/fetch-validation-artifacts.sh); the Slovak rules are ours and ship in the repo.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SchematronSet } from './types.ts';

/** The release the service runs: Peppol BIS Billing 3.0.21 with CEN EN16931 artefacts 1.3.16. */
const PEPPOL_RELEASE = 'peppol-bis-3.0.21';

/** The nearest folder with a package.json: the repository, from src/ (tsx) and from the compiled dist/src/ alike. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

const REPO_ROOT = packageRoot();

export function defaultArtifactsDir(): string {
  return process.env['VALIDATION_ARTIFACTS_DIR'] ?? path.resolve(REPO_ROOT, '../shared/validation');
}

export function defaultCacheDir(): string {
  return path.join(REPO_ROOT, '.cache', 'validation');
}

export const SLOVAK_SCHEMATRON = path.join(REPO_ROOT, 'schemas', 'sk', 'SK-UBL.sch');

/** The .sch file of each rule set the service runs. */
export function schematronFile(artifactsDir: string, set: SchematronSet): string {
  switch (set) {
    case 'cen':
      return path.join(artifactsDir, 'schematron', PEPPOL_RELEASE, 'rules', 'sch', 'CEN-EN16931-UBL.sch');
    case 'peppol':
      return path.join(artifactsDir, 'schematron', PEPPOL_RELEASE, 'rules', 'sch', 'PEPPOL-EN16931-UBL.sch');
    case 'sk':
      return SLOVAK_SCHEMATRON;
  }
}
