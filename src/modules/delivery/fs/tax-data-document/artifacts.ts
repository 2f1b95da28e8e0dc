// Where the TDD's official files live: the sk-tdd bundle below the validation artifacts directory
// (configuration, like the invoice rules: VALIDATION_ARTIFACTS_DIR, default ../shared/validation).
import path from 'node:path';
import type { TddSchematronSet } from '../../../../platform/validation/types.ts';

/** Peppol SK TDD 1.0.0, final release of 2026-04-14. */
const TDD_BUNDLE = path.join('sk-tdd', 'bundle-2026-04-14', 'trn-tdd');

export function tddXsdFile(artifactsDir: string): string {
  return path.join(artifactsDir, TDD_BUNDLE, 'xsd', 'Peppol-Slovak Republic-TDD.xsd');
}

/** The .sch file of each TDD rule set. The CEN and Peppol ones are rewritten for a TDD: never run them on an invoice. */
export function tddSchematronFile(artifactsDir: string, set: TddSchematronSet): string {
  const name = { tdd: 'Peppol-Slovak Republic-TDD.sch', 'tdd-cen': 'CEN-EN16931-UBL.sch', 'tdd-peppol': 'PEPPOL-EN16931-UBL.sch' }[set];
  return path.join(artifactsDir, TDD_BUNDLE, 'schematron', name);
}

/** The UBL 2.1 common schemas the TDD XSD imports (read locally, see src/platform/validation/xsd.ts). */
export function ublCommonDir(artifactsDir: string): string {
  return path.join(artifactsDir, 'xsd', 'ubl-2.1', 'xsd', 'common');
}
