/**
 * Checks a Peppol Reporting document (EUSR 1.1 or TSR 1.0) with its official XSD and Schematron,
 * the Schematron compiled by the project's own engine (cached under `cacheDir`, like the invoice
 * rules). Runs in the calling thread: a report is small and made once a month.
 * `validate` never throws because of the document: refusals come back as fatal findings.
 */
import fs from 'node:fs';
import { defaultArtifactsDir, defaultCacheDir } from '../../platform/validation/artifacts.ts';
import { loadRuleSet, type RuleSet } from '../../platform/validation/schematron/ruleset.ts';
import { prepareSource } from '../../platform/validation/schematron/run.ts';
import type { Finding } from '../../platform/validation/types.ts';
import { parseUntrusted } from '../../platform/xml/index.ts';
import { loadXsd, type XsdSchema } from '../../platform/xml/xsd.ts';
import { reportSchematronFile, reportXsdFile, type ReportKind } from './artifacts.ts';
import { EUSR_NS, TSR_NS } from './xml.ts';

export type ReportFinding = Finding<'xsd' | ReportKind>;

export interface ReportValidation {
  /** true: XSD and Schematron ran and nothing is fatal; false: something is fatal; null: a rule file is missing */
  valid: boolean | null;
  errors: ReportFinding[];
  warnings: ReportFinding[];
}

export interface ReportValidator {
  validate(kind: ReportKind, xml: string | Uint8Array): ReportValidation;
  close(): void;
}

const ROOT: Record<ReportKind, { ns: string; name: string }> = {
  eusr: { ns: EUSR_NS, name: 'EndUserStatisticsReport' },
  tsr: { ns: TSR_NS, name: 'TransactionStatisticsReport' },
};

interface Rules {
  xsd: XsdSchema | null;
  schematron: RuleSet<ReportKind> | null;
  missing: ReportFinding[];
}

async function loadRules(kind: ReportKind, artifactsDir: string, cacheDir: string): Promise<Rules> {
  const missing: ReportFinding[] = [];
  const unavailable = (source: 'xsd' | ReportKind, file: string): ReportFinding => ({
    rule: 'VALIDATION-UNAVAILABLE', flag: 'warning', location: '', source,
    message: `${kind.toUpperCase()} ${source === 'xsd' ? 'XSD' : 'Schematron'} not run: ${file} is missing. Set VALIDATION_ARTIFACTS_DIR to a directory with peppol-reporting/.`,
  });
  const xsdFile = reportXsdFile(artifactsDir, kind);
  const schFile = reportSchematronFile(artifactsDir, kind);
  const xsd = fs.existsSync(xsdFile) ? loadXsd(artifactsDir, xsdFile) : null;
  if (!xsd) missing.push(unavailable('xsd', xsdFile));
  const schematron = fs.existsSync(schFile) ? await loadRuleSet(schFile, kind, cacheDir) : null;
  if (!schematron) missing.push(unavailable(kind, schFile));
  return { xsd, schematron, missing };
}

export async function createReportValidator(opts: { artifactsDir?: string; cacheDir?: string } = {}): Promise<ReportValidator> {
  const artifactsDir = opts.artifactsDir ?? defaultArtifactsDir();
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  const rules: Record<ReportKind, Rules> = { eusr: await loadRules('eusr', artifactsDir, cacheDir), tsr: await loadRules('tsr', artifactsDir, cacheDir) };

  const validate = (kind: ReportKind, input: string | Uint8Array): ReportValidation => {
    const { xsd, schematron, missing } = rules[kind];
    const findings: ReportFinding[] = [...missing];
    const report = (): ReportValidation => {
      const errors = findings.filter((f) => f.flag === 'fatal');
      return { valid: errors.length > 0 ? false : missing.length === 0 ? true : null, errors, warnings: findings.filter((f) => f.flag === 'warning') };
    };
    const parsed = parseUntrusted(input);
    if (!parsed.ok) {
      findings.push({ ...parsed.finding, source: 'xsd' });
      return report();
    }
    const { doc, text } = parsed.parsed;
    try {
      const root = ROOT[kind];
      if (doc.root.name !== root.name || doc.root.namespaceUri !== root.ns) {
        findings.push({ rule: 'XML-NOT-REPORT', flag: 'fatal', location: '/*[1]', message: `The root element is not {${root.ns}}${root.name}.`, source: 'xsd' });
        return report();
      }
      if (xsd) findings.push(...xsd.validate(doc));
    } finally {
      doc.dispose();
    }
    // Schematron runs even when the XSD fails, so the caller sees every problem at once.
    if (schematron) findings.push(...schematron.run(prepareSource(text) ?? text));
    return report();
  };

  return {
    validate,
    close: () => {
      rules.eusr.xsd?.dispose();
      rules.tsr.xsd?.dispose();
    },
  };
}
