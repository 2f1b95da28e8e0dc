/**
 * Validates a Slovak Tax Data Document with the official 1.0.0 bundle (README §5.8):
 *
 * 1. safe parse (src/validation/safe-xml.ts: size and depth limits, no DTD), root `pxs:TaxData`;
 * 2. the TDD XSD, its UBL 2.1 imports read from the local copy;
 * 3. the three Schematron files, compiled by our own compiler and cached as SEF under `cacheDir`:
 *    the TDD rules (ibr-tdd-*), and the CEN and Peppol rules rewritten for a TDD.
 *
 * ```ts
 * const validator = await createTddValidator();       // artifactsDir, cacheDir default like the invoice validator
 * const report = validator.validate(tddXml);          // { valid, errors, warnings, available }
 * validator.close();
 * ```
 *
 * It runs in the calling thread: a TDD is small, and its callers (tests, the tax-authority sandbox)
 * validate one at a time. The first start compiles the CEN file (~10-25 s); later ones load the cache.
 * `validate` never throws because of the document: refusals come back as fatal findings.
 */
import fs from 'node:fs';
import { defaultArtifactsDir, defaultCacheDir } from '../../../../platform/validation/artifacts.ts';
import { parseUntrusted } from '../../../../platform/xml/index.ts';
import { loadRuleSet, type RuleSet } from '../../../../platform/validation/schematron/ruleset.ts';
import { prepareSource } from '../../../../platform/validation/schematron/run.ts';
import type { TddSchematronSet } from '../../../../platform/validation/types.ts';
import { tddSchematronFile, tddXsdFile } from './artifacts.ts';
import type { TddFinding, TddFindingSource, TddValidationReport } from './findings.ts';
import { PXS } from './names.ts';
import { loadTddXsd, tddXsdAvailable, type TddXsd } from './xsd.ts';

export type { TddFinding, TddFindingSource, TddValidationReport } from './findings.ts';

export interface TddValidatorOptions {
  /** Official artifacts (with sk-tdd/ and xsd/ubl-2.1/); default VALIDATION_ARTIFACTS_DIR or ../shared/validation. */
  artifactsDir?: string;
  /** Where compiled SEF files are cached; default `.cache/validation` in the repo. */
  cacheDir?: string;
}

export interface TddValidator {
  validate(xml: string | Uint8Array): TddValidationReport;
  /** false when part of the bundle is missing; validate then says which. */
  readonly available: boolean;
  close(): void;
}

const SETS: TddSchematronSet[] = ['tdd', 'tdd-cen', 'tdd-peppol'];

function finding(rule: string, message: string, source: TddFindingSource, flag: TddFinding['flag'] = 'fatal', location = ''): TddFinding {
  return { rule, flag, location, message, source };
}

function unavailable(source: TddFindingSource, file: string): TddFinding {
  const what = source === 'xsd' ? 'TDD XSD' : `TDD Schematron (${source})`;
  return finding(
    'VALIDATION-UNAVAILABLE',
    `${what} not run: ${file} is missing. Set VALIDATION_ARTIFACTS_DIR to a directory with the sk-tdd bundle.`,
    source,
    'warning',
  );
}

export async function createTddValidator(opts: TddValidatorOptions = {}): Promise<TddValidator> {
  const artifactsDir = opts.artifactsDir ?? defaultArtifactsDir();
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  const xsd: TddXsd | null = tddXsdAvailable(artifactsDir) ? loadTddXsd(artifactsDir) : null;
  const ruleSets: RuleSet<TddSchematronSet>[] = [];
  const missing: TddFinding[] = xsd ? [] : [unavailable('xsd', tddXsdFile(artifactsDir))];
  for (const set of SETS) {
    const file = tddSchematronFile(artifactsDir, set);
    if (fs.existsSync(file)) ruleSets.push(await loadRuleSet(file, set, cacheDir));
    else missing.push(unavailable(set, file));
  }
  const available = missing.length === 0;

  const validate = (input: string | Uint8Array): TddValidationReport => {
    const findings: TddFinding[] = [...missing];
    const report = (): TddValidationReport => {
      const errors = findings.filter((f) => f.flag === 'fatal');
      return { valid: errors.length > 0 ? false : available ? true : null, errors, warnings: findings.filter((f) => f.flag === 'warning'), available };
    };
    const parsed = parseUntrusted(input);
    if (!parsed.ok) {
      findings.push({ ...parsed.finding, source: 'xsd' });
      return report();
    }
    const { doc, text } = parsed.parsed;
    try {
      if (doc.root.name !== 'TaxData' || doc.root.namespaceUri !== PXS) {
        findings.push(finding('XML-NOT-TDD', `The root element is not {${PXS}}TaxData.`, 'xsd', 'fatal', '/*[1]'));
        return report();
      }
      if (xsd) findings.push(...xsd.validate(doc));
    } finally {
      doc.dispose();
    }
    // Schematron runs even when the XSD fails, so the caller sees every problem at once.
    const source = ruleSets.length > 0 ? (prepareSource(text) ?? text) : text;
    for (const rules of ruleSets) findings.push(...rules.run(source));
    return report();
  };

  return {
    available,
    validate,
    close: () => xsd?.dispose(),
  };
}
