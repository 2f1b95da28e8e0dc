/** The Peppol Message Level Status document: model, writer, reader, validator (see model.ts). */
export { buildMls } from './build.ts';
export {
  MLS_CUSTOMIZATION_ID,
  MLS_FAILURE_REASONS,
  MLS_NO_LOCATION,
  MLS_NS,
  MLS_PARTY_SCHEME,
  MLS_PROFILE_ID,
  MLS_RESPONSE_CODES,
  MLS_STATUS_REASONS,
  MlsBuildError,
  MlsReadError,
  type MessageLevelStatus,
  type MlsErrorCode,
  type MlsIssue,
  type MlsResponseCode,
  type MlsStatusReason,
} from './model.ts';
export { readMls, readMlsElement } from './read.ts';
export { createMlsValidator, mlsSchematronFile, type MlsFinding, type MlsFindingSource, type MlsValidationReport, type MlsValidator, type MlsValidatorOptions } from './validate.ts';
