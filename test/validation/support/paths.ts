// Shared locations for the validation tests.
import fs from 'node:fs';
import path from 'node:path';
import { defaultArtifactsDir, defaultCacheDir } from '../../../src/platform/validation/artifacts.ts';

export const ARTIFACTS = defaultArtifactsDir();
export const CACHE = defaultCacheDir();
export const artifact = (...parts: string[]): string => path.join(ARTIFACTS, ...parts);

/**
 * `before(needArtifacts)`: suites that need the official files skip (with a warning) on a machine
 * without them, and fail in CI, where a missing directory is a configuration error.
 */
export function needArtifacts(this: Mocha.Context): void {
  if (fs.existsSync(artifact('xsd')) && fs.existsSync(artifact('schematron'))) return;
  const message = `validation artifacts not found in ${ARTIFACTS}: set VALIDATION_ARTIFACTS_DIR or run scripts/fetch-validation-artifacts.sh --tests`;
  if (process.env['CI']) throw new Error(message);
  console.warn(`  (skipped) ${message}`);
  this.skip();
}
