// What the TDD validator reports: the invoice engine's Finding shape, with the TDD's own sources.
import type { Finding, TddSchematronSet } from '../../../../platform/validation/types.ts';

/** `xsd` (parser, refusals and the TDD XSD) or one of the three TDD rule sets. */
export type TddFindingSource = 'xsd' | TddSchematronSet;

export type TddFinding = Finding<TddFindingSource>;

export interface TddValidationReport {
  /** true: every stage ran and nothing is fatal; false: something is fatal; null: a stage could not run (bundle missing) and nothing it ran is fatal. */
  valid: boolean | null;
  errors: TddFinding[];
  warnings: TddFinding[];
  /** false when part of the sk-tdd bundle is missing (a VALIDATION-UNAVAILABLE warning names it). */
  available: boolean;
}
