/**
 * The Slovak Tax Data Document (Peppol SK TDD 1.0.0): built from the UBL of an invoice or credit
 * note the service sends (reporter role C2) or receives (C3), and validated with the official
 * bundle. How a TDD is derived: docs/tdd.md.
 */
export { buildTdd } from './build.ts';
export { TddBuildError } from './errors.ts';
export type { TddHeader } from './header.ts';
export { readReportedDocumentKey, reportedDocumentUuidOf } from './key.ts';
export { reportedDocumentUuid, uuidV5, type ReportedDocumentKey } from './uuid.ts';
export { createTddValidator, type TddFinding, type TddFindingSource, type TddValidationReport, type TddValidator, type TddValidatorOptions } from './validate.ts';
export { PXS, TDD_CUSTOMIZATION_ID, TDD_PROFILE_ID } from './names.ts';
