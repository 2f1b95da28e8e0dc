/**
 * Validates an MLS with the official Peppol MLS 1.0.1 Schematron, compiled by the project's own
 * engine and cached like the invoice rules (src/platform/validation: loadRuleSet, prepareSource).
 *
 * ```ts
 * const validator = await createMlsValidator();     // artifactsDir, cacheDir default like the invoice validator
 * const { valid, errors, warnings } = validator.validate(mlsXml);
 * ```
 *
 * There is no XSD stage: the MLS bundle ships no ApplicationResponse XSD and neither does
 * ../shared/validation (xsd/ubl-2.1 has the Invoice and CreditNote main documents only). So element
 * order and UBL types are not checked; the Schematron and readMls are what an MLS meets.
 * Runs in the calling thread (an MLS is a few hundred bytes). `validate` never throws because of the
 * document: a refusal of the parser or a root other than ApplicationResponse is a fatal finding.
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultArtifactsDir, defaultCacheDir } from '../../../platform/validation/artifacts.ts';
import { loadRuleSet, type RuleSet } from '../../../platform/validation/schematron/ruleset.ts';
import { prepareSource } from '../../../platform/validation/schematron/run.ts';
import type { Finding } from '../../../platform/validation/types.ts';
import { parseUntrusted } from '../../../platform/xml/index.ts';
import { MLS_NS } from './model.ts';

/** `xml`: the parser's refusals and the root check; `mls`: the MLS Schematron (SCH-MLS-*). */
export type MlsFindingSource = 'xml' | 'mls';
export type MlsFinding = Finding<MlsFindingSource>;

export interface MlsValidationReport {
  /** true: the rules ran and nothing is fatal; false: something is fatal; null: the rules could not run (artifact missing) and nothing else is fatal */
  valid: boolean | null;
  errors: MlsFinding[];
  warnings: MlsFinding[];
}

export interface MlsValidator {
  validate(xml: string | Uint8Array): MlsValidationReport;
}

export interface MlsValidatorOptions {
  /** Official artifacts (with peppol-mls-1.0.1/); default VALIDATION_ARTIFACTS_DIR or ../shared/validation. */
  artifactsDir?: string;
  /** Where compiled rule sets are cached; default `.cache/validation` in the repo. */
  cacheDir?: string;
}

/** The official Schematron of Peppol MLS 1.0.1 (2025-12-15). */
export function mlsSchematronFile(artifactsDir: string): string {
  return path.join(artifactsDir, 'peppol-mls-1.0.1', 'trn-mls', 'schematron', 'peppol-mls-1.0.1.sch');
}

export async function createMlsValidator(opts: MlsValidatorOptions = {}): Promise<MlsValidator> {
  const artifactsDir = opts.artifactsDir ?? defaultArtifactsDir();
  const file = mlsSchematronFile(artifactsDir);
  const rules: RuleSet<'mls'> | null = fs.existsSync(file) ? await loadRuleSet(file, 'mls', opts.cacheDir ?? defaultCacheDir()) : null;
  const unavailable: MlsFinding = {
    rule: 'VALIDATION-UNAVAILABLE',
    flag: 'warning',
    location: '',
    message: `MLS Schematron not run: ${file} is missing. Set VALIDATION_ARTIFACTS_DIR to a directory with the peppol-mls-1.0.1 bundle.`,
    source: 'mls',
  };

  const validate = (input: string | Uint8Array): MlsValidationReport => {
    const findings: MlsFinding[] = rules ? [] : [unavailable];
    const report = (): MlsValidationReport => {
      const errors = findings.filter((f) => f.flag === 'fatal');
      return { valid: errors.length > 0 ? false : rules ? true : null, errors, warnings: findings.filter((f) => f.flag === 'warning') };
    };
    const parsed = parseUntrusted(input);
    if (!parsed.ok) {
      findings.push({ ...parsed.finding, source: 'xml' });
      return report();
    }
    const { doc, text } = parsed.parsed;
    try {
      if (doc.root.name !== 'ApplicationResponse' || doc.root.namespaceUri !== MLS_NS.ubl) {
        findings.push({ rule: 'XML-NOT-MLS', flag: 'fatal', location: '/*[1]', message: `The root element is not {${MLS_NS.ubl}}ApplicationResponse.`, source: 'xml' });
        return report();
      }
    } finally {
      doc.dispose();
    }
    if (rules) for (const f of rules.run(prepareSource(text) ?? text)) findings.push(f);
    return report();
  };

  return { validate };
}
