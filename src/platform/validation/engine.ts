// The validation pipeline on one thread: safe parse -> XSD -> CEN -> Peppol -> SK, with the rule sets of
// the rule release asked for (releases.ts). Workers each own one Engine; the Validator in index.ts
// spreads documents over them. Each release's rule sets load on its first document, once per engine (and
// compile once per machine: the compiled code is cached on disk), so switching release costs nothing after.
import fs from 'node:fs';
import { ruleReleases } from './artifacts.ts';
import { releaseAt, type RuleRelease } from './releases.ts';
import { parseUntrusted } from '../xml/index.ts';
import type { CompileOptions } from './schematron/compile.ts';
import { loadRuleSet, type RuleSet, type ValidationEngineName } from './schematron/ruleset.ts';
import { prepareSource } from './schematron/run.ts';
import { XsdStage, xsdAvailable } from './xsd.ts';
import type { Finding, SchemasAvailable, SchematronSet, StageTimings, ValidationReport } from './types.ts';

export interface EngineOptions {
  artifactsDir: string;
  cacheDir: string;
  /** Override the .sch file of a rule set in every release (tests run older releases against their own unit tests). */
  schematronFiles?: Partial<Record<SchematronSet, string>>;
  /** The rule releases, oldest first; default those of `artifactsDir` (index.ts reads them once for all workers). */
  releases?: RuleRelease[];
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

/** The rule sets of one release, as loaded. */
export interface ReleaseRules {
  release: RuleRelease;
  files: Record<SchematronSet, string>;
  ruleSets: Partial<Record<SchematronSet, RuleSet>>;
}

export class Engine {
  private readonly xsd: XsdStage | null;
  private readonly releases: readonly RuleRelease[];
  /** By release id; a release's entry exists from the start of its loading. */
  private readonly loading = new Map<string, Promise<ReleaseRules>>();
  private readonly loaded = new Map<string, ReleaseRules>();
  /** By set and file: releases that share a file (3.0.22 keeps CEN 1.3.16, all keep our SK rules) share its rule set. */
  private readonly ruleSetCache = new Map<string, Promise<RuleSet>>();
  /** The release in force when the engine started: `validate` without a release runs it. */
  readonly defaultRelease: RuleRelease;

  private constructor(private readonly options: EngineOptions) {
    this.releases = options.releases ?? ruleReleases(options.artifactsDir);
    this.defaultRelease = releaseAt(this.releases, new Date());
    this.xsd = xsdAvailable(options.artifactsDir) ? new XsdStage(options.artifactsDir) : null;
    this.xsd?.warm();
  }

  /** An engine with the release in force now loaded (compiled on the first start of a machine). */
  static async create(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options);
    await engine.load(engine.defaultRelease.id);
    return engine;
  }

  /** The release in force at `at`. */
  releaseAt(at: Date): RuleRelease {
    return releaseAt(this.releases, at);
  }

  /** Loads a release's rule sets (once; later calls wait for the same loading). */
  load(releaseId: string): Promise<ReleaseRules> {
    let rules = this.loading.get(releaseId);
    if (!rules) {
      const release = this.releases.find((r) => r.id === releaseId);
      if (!release) return Promise.reject(new Error(`unknown rule release ${releaseId}`));
      rules = this.loadRelease(release);
      // a failed load is not remembered: the next document tries again
      rules.catch(() => this.loading.delete(releaseId));
      this.loading.set(releaseId, rules);
    }
    return rules;
  }

  private async loadRelease(release: RuleRelease): Promise<ReleaseRules> {
    const files = Object.fromEntries(SETS.map((s) => [s, this.options.schematronFiles?.[s] ?? release.schematron[s]])) as Record<SchematronSet, string>;
    const ruleSets: Partial<Record<SchematronSet, RuleSet>> = {};
    for (const set of SETS) {
      if (!fs.existsSync(files[set])) continue;
      const key = `${set}\0${files[set]}`;
      let ruleSet = this.ruleSetCache.get(key);
      if (!ruleSet) {
        ruleSet = loadRuleSet(files[set], set, this.options.cacheDir, { ...this.options.compile, ...(this.options.engine ? { engine: this.options.engine } : {}) });
        ruleSet.catch(() => this.ruleSetCache.delete(key));
        this.ruleSetCache.set(key, ruleSet);
      }
      ruleSets[set] = await ruleSet;
    }
    const rules = { release, files, ruleSets };
    this.loaded.set(release.id, rules);
    return rules;
  }

  private rules(releaseId: string): ReleaseRules {
    const rules = this.loaded.get(releaseId);
    if (!rules) throw new Error(`rule release ${releaseId} is not loaded (await engine.load first)`);
    return rules;
  }

  private availability(rules: ReleaseRules): SchemasAvailable {
    return {
      xsd_invoice: this.xsd !== null,
      schematron_peppol: rules.ruleSets.cen !== undefined && rules.ruleSets.peppol !== undefined,
      schematron_slovak: rules.ruleSets.sk !== undefined,
    };
  }

  /** What the release in force at the start can run. */
  get schemasAvailable(): SchemasAvailable {
    return this.availability(this.rules(this.defaultRelease.id));
  }

  /** Validates under the release in force at `at`, loading it first if this is its first document. */
  async validateAt(input: string | Uint8Array, at: Date): Promise<ValidationReport> {
    const release = this.releaseAt(at);
    await this.load(release.id);
    return this.validate(input, release.id);
  }

  /** Validates under a loaded release (default: the one in force when the engine started). */
  validate(input: string | Uint8Array, releaseId: string = this.defaultRelease.id): ValidationReport {
    const rules = this.rules(releaseId);
    const timings: StageTimings = {};
    const findings: Finding[] = [];
    const available = this.availability(rules);
    const report = (xsd: boolean | null, peppol: boolean | null, sk: boolean | null, type: ValidationReport['document_type']): ValidationReport => ({
      document_type: type,
      release: rules.release.id,
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
    const prepared = SETS.some((s) => rules.ruleSets[s]) ? prepareSource(text) : null;
    if (prepared) for (const set of SETS) rules.ruleSets[set]?.prepare?.(prepared);
    const source = prepared ?? text;
    timings.parse += performance.now() - t;
    for (const set of SETS) {
      const rs = rules.ruleSets[set];
      if (!rs) {
        findings.push(missingWarning(set, rules.files[set]));
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
