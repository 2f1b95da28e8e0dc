// One TDD validator for every test file of a run (loading the cached rule sets takes a second or two).
import { createTddValidator, type TddValidationReport, type TddValidator } from '../../../src/modules/delivery/fs/tax-data-document/index.ts';
import { ARTIFACTS, CACHE } from '../../validation/support/paths.ts';

let shared: Promise<TddValidator> | null = null;

export function tddValidator(): Promise<TddValidator> {
  shared ??= createTddValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE });
  return shared;
}

/** Fatal findings as readable lines, for assertion messages. */
export function describeErrors(report: TddValidationReport): string[] {
  return report.errors.map((e) => `${e.source} ${e.rule} at ${e.location}: ${e.message}`);
}
