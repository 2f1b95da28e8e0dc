/**
 * UBL validation engine: XSD (UBL 2.1), the official CEN EN16931 and Peppol BIS Billing 3.0 Schematron
 * (release 3.0.21 / CEN 1.3.16) and our Slovak Schematron (schemas/sk/SK-UBL.sch) in a pool of worker
 * threads. The rules run compiled to JavaScript (compiled/), with SaxonJS (schematron/) as the reference
 * and the fallback for what the compiled engine cannot be sure of; VALIDATION_ENGINE=saxonjs runs SaxonJS only.
 *
 * ```ts
 * import { createValidator } from './validation/index.ts';
 * const validator = await createValidator({ artifactsDir, cacheDir, workers: 2 });
 * const report = await validator.validate(xmlStringOrBytes, { at: sentOrReceivedAt }); // at: default now
 * // report.release: the rule release in force at `at` that it ran, e.g. 'peppol-bis-3.0.21'
 * // report.xsd_valid / peppol_valid / slovak_valid: true | false | null (null = bundle missing, not run)
 * // report.errors / report.warnings: Finding { rule, flag: 'fatal'|'warning', location, message, source }
 * // report.schemas_available: { xsd_invoice, schematron_peppol, schematron_slovak }
 * // report.document_type: 'Invoice' | 'CreditNote' | null
 * await validator.close();
 * ```
 *
 * - `validate` never throws for a bad document: unsafe XML (DTDs and entities in any encoding, an
 *   unsupported encoding, too large, too many elements or too deep),
 *   non-UBL roots, XSD errors and errors raised inside a rule all come back as fatal findings; a
 *   timeout or a crashed worker gives `VALIDATION-TIMEOUT` / `VALIDATION-ENGINE-ERROR` with every
 *   `*_valid` null. It rejects only when the validator is closed.
 * - `*_valid` is `true` only when that stage ran and produced no fatal finding. `peppol_valid` covers
 *   CEN + Peppol together; a missing bundle gives `null`, `schemas_available` false and a warning
 *   with rule `VALIDATION-UNAVAILABLE`. Strict callers (SAPI) must fail closed on `null`.
 * - Rule releases are data (releases.ts): the one in force at `at` runs. The one in force at creation
 *   loads (and on a machine's first start compiles) before createValidator resolves; any other loads on
 *   its first document, once per worker, and its compiled code is cached like the rest.
 * - The first start compiles the rule sets to JavaScript (well under a second each) into `cacheDir`,
 *   keyed by SHA-256; SaxonJS's SEF (CEN ~15-25 s, ~700 MB) is compiled only when a document first
 *   needs the fallback, or when VALIDATION_ENGINE=saxonjs.
 * - `workers: 0` runs in the calling thread (blocks the event loop; CLI and tests only).
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import { defaultArtifactsDir, defaultCacheDir, ruleReleases } from './artifacts.ts';
import { Engine, type EngineOptions } from './engine.ts';
import { releaseAt } from './releases.ts';
import type { ValidationEngineName } from './schematron/ruleset.ts';
import type { WorkerResult, WorkerTask } from './worker.ts';
import type { Finding, SchemasAvailable, ValidationReport } from './types.ts';

export type { DocumentType, Finding, FindingSource, SchemasAvailable, StageTimings, ValidationReport } from './types.ts';
export { defaultArtifactsDir, defaultCacheDir } from './artifacts.ts';
export type { RuleRelease } from './releases.ts';
export { defaultEngine, type ValidationEngineName } from './schematron/ruleset.ts';

interface ValidatorOptions {
  /** Official artifacts (xsd/, schematron/); default VALIDATION_ARTIFACTS_DIR or ../shared/validation. */
  artifactsDir?: string;
  /** Where compiled SEF files are cached; default `.cache/validation` in the repo. */
  cacheDir?: string;
  /**
   * Worker threads at most; default min(2, CPUs). 0 = validate in the calling thread. One runs from
   * the start; more start while documents wait and end after a minute without work (IDLE_WORKER_MS).
   */
  workers?: number;
  /** A document taking longer than this is abandoned (its worker is replaced). Default 60 s. */
  timeoutMs?: number;
  /** `compiled` (rules compiled to JavaScript) or `saxonjs` (the reference); default VALIDATION_ENGINE. */
  engine?: ValidationEngineName;
}

export interface ValidateOptions {
  /** The moment the document is checked for (its sending or receipt): picks the rule release in force. Default now. */
  at?: Date;
}

export interface Validator {
  validate(xml: string | Uint8Array, options?: ValidateOptions): Promise<ValidationReport>;
  /** What the release in force when the validator started can run. */
  readonly schemasAvailable: SchemasAvailable;
  close(): Promise<void>;
}

/**
 * Limits of a validation worker. A larger young generation than V8's default: the tree of a 1,000-line
 * invoice (tens of thousands of nodes) then dies young instead of being promoted and swept, which
 * halves the time of large documents in the compiled engine (bench/validation.ts measures in such a worker).
 */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 128 } as const;

/**
 * Each worker holds its own copy of the rules (~70 MB resident); a quiet service needs one. A second
 * starts when documents wait (it loads the rules and warms up, ~1 s of CPU, before its first answer)
 * and ends after this long without work.
 */
const IDLE_WORKER_MS = 60_000;
/** Without a document for this long, a worker gives back the memory its documents used. */
const QUIET_WORKER_MS = 5_000;

/** The engine as services get it: started on first use (compiling the rules takes a while once). */
export type ValidatorSource = () => Promise<Validator>;

function failureReport(schemas: SchemasAvailable, release: string, rule: string, message: string): ValidationReport {
  const finding: Finding = { rule, flag: 'fatal', location: '', message, source: 'xsd' };
  return {
    document_type: null,
    release,
    xsd_valid: null,
    peppol_valid: null,
    slovak_valid: null,
    errors: [finding],
    warnings: [],
    schemas_available: schemas,
    timings_ms: {},
  };
}

export async function createValidator(opts: ValidatorOptions = {}): Promise<Validator> {
  const artifactsDir = opts.artifactsDir ?? defaultArtifactsDir();
  // read once, here: every worker then runs the same releases, and a broken manifest fails the start
  const releases = ruleReleases(artifactsDir);
  const options: EngineOptions = {
    artifactsDir,
    cacheDir: opts.cacheDir ?? defaultCacheDir(),
    releases,
    ...(opts.engine ? { engine: opts.engine } : {}),
  };
  const releaseFor = (at: Date | undefined) => releaseAt(releases, at ?? new Date()).id;
  const workers = opts.workers ?? Math.min(2, os.availableParallelism());
  const timeoutMs = opts.timeoutMs ?? 60_000;

  if (workers === 0) {
    const engine = await Engine.create(options);
    return {
      schemasAvailable: engine.schemasAvailable,
      validate: async (xml, validateOptions) => {
        const release = releaseFor(validateOptions?.at);
        try {
          await engine.load(release);
          return engine.validate(xml, release);
        } catch (err) {
          // as the pool does for a crashed worker: the caller (the CLI) gets a finding, not an exception
          const message = err instanceof Error ? err.message : String(err);
          return failureReport(engine.schemasAvailable, release, 'VALIDATION-ENGINE-ERROR', `The validation engine failed: ${message}`);
        }
      },
      close: () => {
        engine.close();
        return Promise.resolve();
      },
    };
  }

  const pool = new Piscina<WorkerTask, WorkerResult>({
    // compiled (dist/, `npm start`): the worker is plain JavaScript; from source (tsx), a JS entry registers tsx in the thread first
    filename: new URL(import.meta.url.endsWith('.ts') ? './worker-entry.mjs' : './worker.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: workers,
    idleTimeout: IDLE_WORKER_MS,
    resourceLimits: WORKER_RESOURCE_LIMITS,
  });
  // The first worker compiles (or loads) the rule sets and warms up before the first real document;
  // the workers started later only ever read the cache.
  const prepared = await pool.run({ kind: 'prepare', options });
  if (prepared.kind !== 'prepared') throw new Error('validation worker did not prepare');
  const schemas = prepared.schemas;
  let closed = false;
  // A worker's young generation grows to what its largest documents needed (up to 128 MB, see
  // WORKER_RESOURCE_LIMITS) and stays so; once no document has come for a while, an idle thread
  // collects it back (a task, since an idle thread waits blocked for the next one).
  let running = 0;
  const quiet = setTimeout(() => {
    if (closed || running > 0) return;
    pool.run({ kind: 'release-memory' }).catch(() => undefined);
  }, QUIET_WORKER_MS);
  quiet.unref();

  return {
    schemasAvailable: schemas,
    async validate(xml, validateOptions) {
      if (closed) throw new Error('validator is closed');
      const release = releaseFor(validateOptions?.at);
      running++;
      try {
        const result = await pool.run({ kind: 'validate', options, xml, release }, { signal: AbortSignal.timeout(timeoutMs) });
        if (result.kind !== 'report') throw new Error('unexpected worker answer');
        return result.report;
      } catch (err) {
        if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) {
          return failureReport(schemas, release, 'VALIDATION-TIMEOUT', `Validation did not finish within ${timeoutMs} ms.`);
        }
        // A crashed worker (out of memory, a bug) is replaced by the pool; the caller gets a finding.
        const message = err instanceof Error ? err.message : String(err);
        return failureReport(schemas, release, 'VALIDATION-ENGINE-ERROR', `The validation engine failed: ${message}`);
      } finally {
        running--;
        quiet.refresh();
      }
    },
    async close() {
      closed = true;
      clearTimeout(quiet);
      await pool.destroy();
    },
  };
}
