// Where the rule files live. The official artifacts are configuration (VALIDATION_ARTIFACTS_DIR,
// fetched by scripts/fetch-validation-artifacts.sh); the Slovak rules are ours and ship in the repo.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverReleases, releaseAt, type RuleRelease } from './releases.ts';
import type { SchematronSet } from './types.ts';

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

/** The rule releases for an artifacts folder (releases.ts), oldest first. */
export function ruleReleases(artifactsDir: string): RuleRelease[] {
  return discoverReleases(artifactsDir, REPO_ROOT);
}

/** The release in force at `at` (default now) for an artifacts folder. */
export function releaseInForce(artifactsDir: string, at: Date = new Date()): RuleRelease {
  return releaseAt(ruleReleases(artifactsDir), at);
}

/** The .sch file of each rule set of the release in force at `at` (default now). */
export function schematronFile(artifactsDir: string, set: SchematronSet, at: Date = new Date()): string {
  return releaseInForce(artifactsDir, at).schematron[set];
}
