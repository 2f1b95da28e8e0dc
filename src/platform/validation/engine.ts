// The validation pipeline on one thread: safe parse -> XSD -> CEN -> Peppol -> SK.
// Workers each own one Engine; the Validator in index.ts spreads documents over them.
import fs from 'node:fs';
import { schematronFile } from './artifacts.ts';
import { parseUntrusted } from '../xml/index.ts';
import type { CompileOptions } from './schematron/compile.ts';
import { loadRuleSet, type RuleSet, type ValidationEngineName } from './schematron/ruleset.ts';
import { prepareSource } from './schematron/run.ts';
import { XsdStage, xsdAvailable } from './xsd.ts';
import type { Finding, SchemasAvailable, SchematronSet, StageTimings, ValidationReport } from './types.ts';

export interface EngineOptions {
  artifactsDir: string;
  cacheDir: string;
  /** Override the .sch file of a rule set (tests run older releases against their own unit tests). */
  schematronFiles?: Partial<Record<SchematronSet, string>>;
  /** Compiler options; `{ optimize: false }` runs the literal translation in SaxonJS (benchmarks compare it). */
  compile?: CompileOptions;
  /** Which engine runs the rules; default VALIDATION_ENGINE, else the compiled engine. */
  engine?: ValidationEngineName;
}

const SETS: SchematronSet[] = ['cen', 'peppol', 'sk'];

function missingWarning(source: Finding['source'], file: string): Finding {
  const what = { xsd: 'UBL 2.1 XSD', cen: 'CEN EN16931 rules', peppol: 'Peppol BIS rules', sk: 'Slovak rules' }[source];
  return {
    rule: 'VALIDATION-UNAVAILABLE',
    flag: 'warning',
    location: '',
    message: `${what} not run: ${file} is missing. Set VALIDATION_ARTIFACTS_DIR or run scripts/fetch-validation-artifacts.sh.`,
    source,
  };
}

export class Engine {
  private readonly xsd: XsdStage | null;
  private constructor(
    private readonly options: EngineOptions,
    private readonly ruleSets: Partial<Record<SchematronSet, RuleSet>>,
    private readonly files: Record<SchematronSet, string>,
  ) {
    this.xsd = xsdAvailable(options.artifactsDir) ? new XsdStage(options.artifactsDir) : null;
    this.xsd?.warm();
  }

  static async create(options: EngineOptions): Promise<Engine> {
    const files = Object.fromEntries(
      SETS.map((s) => [s, options.schematronFiles?.[s] ?? schematronFile(options.artifactsDir, s)]),
    ) as Record<SchematronSet, string>;
    const ruleSets: Partial<Record<SchematronSet, RuleSet>> = {};
    for (const set of SETS) {
      if (fs.existsSync(files[set])) {
        ruleSets[set] = await loadRuleSet(files[set], set, options.cacheDir, { ...options.compile, ...(options.engine ? { engine: options.engine } : {}) });
      }
    }
    return new Engine(options, ruleSets, files);
  }

  get schemasAvailable(): SchemasAvailable {
    return {
      xsd_invoice: this.xsd !== null,
      schematron_peppol: this.ruleSets.cen !== undefined && this.ruleSets.peppol !== undefined,
      schematron_slovak: this.ruleSets.sk !== undefined,
    };
  }

  validate(input: string | Uint8Array): ValidationReport {
    const timings: StageTimings = {};
    const findings: Finding[] = [];
    const available = this.schemasAvailable;
    const report = (xsd: boolean | null, peppol: boolean | null, sk: boolean | null, type: ValidationReport['document_type']): ValidationReport => ({
      document_type: type,
      xsd_valid: xsd,
      peppol_valid: peppol,
      slovak_valid: sk,
      errors: findings.filter((f) => f.flag === 'fatal'),
      warnings: findings.filter((f) => f.flag === 'warning'),
      schemas_available: available,
      timings_ms: timings,
    });
    const clean = (source: Finding['source'] | Finding['source'][]): boolean =>
      !findings.some((f) => f.flag === 'fatal' && ([] as string[]).concat(source).includes(f.source));

    let t = performance.now();
    const parsed = parseUntrusted(input);
    timings.parse = performance.now() - t;
    if (!parsed.ok) {
      findings.push(parsed.finding);
      return report(false, null, null, null);
    }
    const { doc, text, documentType } = parsed.parsed;
    try {
      if (documentType === null) {
        findings.push({
          rule: 'XML-NOT-UBL',
          flag: 'fatal',
          location: '/*[1]',
          message: 'The root element is neither a UBL 2.1 Invoice nor a CreditNote.',
          source: 'xsd',
        });
        return report(false, null, null, null);
      }
      if (this.xsd) {
        t = performance.now();
        // not push(...): a spread of tens of thousands of schema errors overflows the stack
        for (const f of this.xsd.validate(doc, documentType)) findings.push(f);
        timings.xsd = performance.now() - t;
      } else findings.push(missingWarning('xsd', `${this.options.artifactsDir}/xsd/ubl-2.1`));
    } finally {
      doc.dispose();
    }
    // Schematron runs even on XSD-invalid documents: the findings help, and *_valid stays honest.
    // The engine parses the document once for all rule sets (counted in the parse stage).
    t = performance.now();
    const prepared = SETS.some((s) => this.ruleSets[s]) ? prepareSource(text) : null;
    if (prepared) for (const set of SETS) this.ruleSets[set]?.prepare?.(prepared);
    const source = prepared ?? text;
    timings.parse += performance.now() - t;
    for (const set of SETS) {
      const rs = this.ruleSets[set];
      if (!rs) {
        findings.push(missingWarning(set, this.files[set]));
        continue;
      }
      t = performance.now();
      for (const f of rs.run(source)) findings.push(f);
      timings[set] = performance.now() - t;
    }
    const xsdValid = available.xsd_invoice ? clean('xsd') : null;
    const peppolValid = available.schematron_peppol ? clean(['cen', 'peppol']) : null;
    const skValid = available.schematron_slovak ? clean('sk') : null;
    return report(xsdValid, peppolValid, skValid, documentType);
  }

  close(): void {
    this.xsd?.dispose();
  }
}
