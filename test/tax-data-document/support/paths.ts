// Where the TDD test data lives: the sk-tdd bundle and its invoice/TDD pairs, below the artifacts directory.
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS } from '../../validation/support/paths.ts';

export const SK_TDD = path.join(ARTIFACTS, 'sk-tdd');
export const TESTFILES = path.join(SK_TDD, 'testfiles');
export const EXAMPLES = path.join(SK_TDD, 'bundle-2026-04-14', 'trn-tdd', 'example');

export const read = (...parts: string[]): Buffer => fs.readFileSync(path.join(...parts));

/**
 * `before(needTddArtifacts)`: skip (with a warning) without the sk-tdd bundle, fail in CI where a
 * missing directory is a configuration error.
 */
export function needTddArtifacts(this: Mocha.Context): void {
  if (fs.existsSync(SK_TDD) && fs.existsSync(path.join(ARTIFACTS, 'xsd'))) return;
  const message = `TDD artifacts not found in ${SK_TDD}: set VALIDATION_ARTIFACTS_DIR to a directory with sk-tdd/ and xsd/`;
  if (process.env['CI']) throw new Error(message);
  console.warn(`  (skipped) ${message}`);
  this.skip();
}
