// Public shapes of the validation engine. Plain data only: reports cross worker-thread boundaries.

/** Which rule set produced a finding. */
export type FindingSource = 'xsd' | 'cen' | 'peppol' | 'sk';

/**
 * One failed assert (or fired report), schema error, or refusal. `S` names the rule sets a
 * validator runs: the invoice engine's by default, the Tax Data Document's in src/modules/delivery/fs/tax-data-document.
 */
export interface Finding<S extends string = FindingSource> {
  /** Rule id, e.g. `BR-CO-15`, `PEPPOL-EN16931-R001`, `SK-BR-04`, or `XSD` / `XML-*` for parser and schema errors. */
  rule: string;
  flag: 'fatal' | 'warning';
  /** XPath of the offending node (Schematron) or `line:col` (XSD / parser). */
  location: string;
  message: string;
  source: S;
}

export type DocumentType = 'Invoice' | 'CreditNote';

export interface SchemasAvailable {
  xsd_invoice: boolean;
  schematron_peppol: boolean;
  schematron_slovak: boolean;
}

/** Milliseconds spent per stage; a stage that did not run is absent. */
export type StageTimings = Partial<Record<FindingSource | 'parse', number>>;

export interface ValidationReport {
  document_type: DocumentType | null;
  /** The rule release the document was checked under (src/platform/validation/releases.ts), e.g. `peppol-bis-3.0.21`. */
  release: string;
  /** `null` when the bundle is missing or the stage could not run; never `true` unless it ran clean of fatals. */
  xsd_valid: boolean | null;
  /** CEN EN16931 + Peppol BIS rules together. */
  peppol_valid: boolean | null;
  slovak_valid: boolean | null;
  errors: Finding[];
  warnings: Finding[];
  schemas_available: SchemasAvailable;
  timings_ms: StageTimings;
}

/** Rule sets the engine knows; each compiles from one .sch file. */
export type SchematronSet = 'cen' | 'peppol' | 'sk';

/** The Slovak Tax Data Document's rule sets (src/modules/delivery/fs/tax-data-document): its own, and the CEN and Peppol rules rewritten for it. */
export type TddSchematronSet = 'tdd' | 'tdd-cen' | 'tdd-peppol';
