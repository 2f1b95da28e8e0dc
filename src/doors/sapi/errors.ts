import { SAPI_ERRORS, SapiRefusal, type SapiCode, type SapiDetail } from '../../../commands/sapi/errors.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { DomainErrorCode } from '../../../commands/shared/error-codes.ts';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import type { SapiErrorBody } from '../../../schemas/sapi/errors.ts';
import { WrongExpectedRevision } from '../../platform/eventstore/port.ts';
import { PlatformError, RequestValidationError, TooManyRequests, boundIssues, type ErrorRenderer, type FailedRequest, type RenderedError } from '../../platform/http/index.ts';

/** The correlation id is the request id: in the envelope, in this header, and on the log line. */
export const CORRELATION_HEADER = 'X-Correlation-Id';

/** The HTTP status of every SAPI-SK code (the spec gives AUTH-001, DOC-NOT-FOUND, QUOTA and DISABLED; docs/sapi.md the rest). */
export const sapiStatusOf: Record<SapiCode, number> = {
  'SAPI-AUTH-001': 401,
  'SAPI-AUTH-LOCKED': 403,
  'SAPI-AUTH-PARTICIPANT': 403,
  'SAPI-AUTH-SCOPE': 403,
  'SAPI-VAL-SCOPE': 400,
  'SAPI-AUTH-IP': 403,
  'SAPI-VAL-001': 400,
  'SAPI-VAL-CHECKSUM': 400,
  'SAPI-VAL-VALIDATION-UNAVAILABLE': 503,
  'SAPI-IDEMPOTENCY-CONFLICT': 409,
  'SAPI-DOC-NOT-FOUND': 404,
  'SAPI-QUOTA-INVOICE-LIMIT': 402,
  'SAPI-DISABLED': 503,
  'SAPI-IDEMPOTENCY-IN-PROGRESS': 409,
  'SAPI-RATE-LIMIT': 429,
  'SAPI-NOT-FOUND': 404,
  'SAPI-PAYLOAD-TOO-LARGE': 413,
  'SAPI-INTERNAL': 500,
  'SAPI-UNAVAILABLE': 503,
};

/**
 * The SAPI-SK code of every native domain error code, for the refusals of shared code that reach
 * /sapi (a bad token, the monthly quota, a read model behind). A token or key refused is AUTH-001,
 * the quota QUOTA-INVOICE-LIMIT, missing code lists VALIDATION-UNAVAILABLE, anything else the
 * service cannot do now UNAVAILABLE; every other refusal is VAL-001 with its native code as the issue.
 */
export const sapiCodeOf: Record<DomainErrorCode, SapiCode> = {
  api_key_exists: 'SAPI-VAL-001',
  api_key_not_found: 'SAPI-VAL-001',
  api_key_required: 'SAPI-AUTH-001',
  api_key_revoked: 'SAPI-VAL-001',
  as4_message_id_taken: 'SAPI-VAL-001',
  bulk_import_job_exists: 'SAPI-VAL-001',
  bulk_import_job_not_found: 'SAPI-VAL-001',
  code_lists_unavailable: 'SAPI-VAL-VALIDATION-UNAVAILABLE',
  company_exists: 'SAPI-VAL-001',
  company_has_no_participant: 'SAPI-VAL-001',
  company_not_found: 'SAPI-VAL-001',
  company_registry_unavailable: 'SAPI-VAL-001',
  credit_limit_exceeded: 'SAPI-VAL-001',
  credit_note_not_found: 'SAPI-VAL-001',
  currency_mismatch: 'SAPI-VAL-001',
  customer_exists: 'SAPI-VAL-001',
  customer_not_found: 'SAPI-VAL-001',
  customer_vat_id_conflict: 'SAPI-VAL-001',
  export_too_large: 'SAPI-VAL-001',
  feature_not_available: 'SAPI-VAL-001',
  file_empty: 'SAPI-VAL-001',
  file_missing: 'SAPI-VAL-001',
  idempotency_claim_lost: 'SAPI-VAL-001',
  idempotency_key_in_progress: 'SAPI-VAL-001',
  idempotency_key_reused: 'SAPI-VAL-001',
  idempotency_key_secret_not_replayable: 'SAPI-VAL-001',
  if_match_required: 'SAPI-VAL-001',
  insufficient_role: 'SAPI-VAL-001',
  invalid_api_key: 'SAPI-AUTH-001',
  invalid_as_of: 'SAPI-VAL-001',
  invalid_credentials: 'SAPI-AUTH-001',
  invalid_expiry: 'SAPI-VAL-001',
  invalid_login_challenge: 'SAPI-AUTH-001',
  invalid_name: 'SAPI-VAL-001',
  invalid_numbering_pattern: 'SAPI-VAL-001',
  invalid_participant_id: 'SAPI-VAL-001',
  invalid_refresh_token: 'SAPI-AUTH-001',
  invalid_scope: 'SAPI-VAL-001',
  invalid_status: 'SAPI-VAL-001',
  invalid_token: 'SAPI-AUTH-001',
  invalid_totp_code: 'SAPI-AUTH-001',
  invoice_exists: 'SAPI-VAL-001',
  invoice_not_found: 'SAPI-VAL-001',
  invoice_number_conflict: 'SAPI-VAL-001',
  invoice_number_immutable: 'SAPI-VAL-001',
  locked_credit_note: 'SAPI-VAL-001',
  malformed_request: 'SAPI-VAL-001',
  name_required: 'SAPI-VAL-001',
  name_too_long: 'SAPI-VAL-001',
  not_creditable: 'SAPI-VAL-001',
  not_payable: 'SAPI-VAL-001',
  numbering_busy: 'SAPI-UNAVAILABLE',
  oauth_client_exists: 'SAPI-VAL-001',
  oauth_client_not_found: 'SAPI-VAL-001',
  operator_only: 'SAPI-VAL-001',
  organisation_exists: 'SAPI-VAL-001',
  organisation_not_found: 'SAPI-VAL-001',
  participant_lookup_failed: 'SAPI-VAL-001',
  pay_by_square_no_account: 'SAPI-VAL-001',
  pay_by_square_nothing_due: 'SAPI-VAL-001',
  payload_too_large: 'SAPI-VAL-001',
  payment_not_found: 'SAPI-VAL-001',
  peppol_delivery_failed: 'SAPI-VAL-001',
  peppol_receipt_not_found: 'SAPI-DOC-NOT-FOUND',
  peppol_report_not_sendable: 'SAPI-VAL-001',
  plan_required: 'SAPI-VAL-001',
  read_model_behind: 'SAPI-UNAVAILABLE',
  read_model_degraded: 'SAPI-UNAVAILABLE',
  refresh_family_exists: 'SAPI-VAL-001',
  refund_exceeds_remaining: 'SAPI-VAL-001',
  reviewer_must_be_user: 'SAPI-VAL-001',
  sapi_client_exists: 'SAPI-VAL-001',
  sapi_client_not_found: 'SAPI-VAL-001',
  sapi_document_exists: 'SAPI-VAL-001',
  sapi_document_not_found: 'SAPI-VAL-001',
  sapi_document_not_processing: 'SAPI-VAL-001',
  scopes_required: 'SAPI-VAL-001',
  self_review_not_allowed: 'SAPI-VAL-001',
  too_many_attempts: 'SAPI-VAL-001',
  totp_already_enabled: 'SAPI-VAL-001',
  totp_not_enabled: 'SAPI-VAL-001',
  totp_not_pending: 'SAPI-VAL-001',
  unsupported_content_type: 'SAPI-VAL-001',
  usage_limit_exceeded: 'SAPI-QUOTA-INVOICE-LIMIT',
  user_exists: 'SAPI-VAL-001',
  user_not_found: 'SAPI-VAL-001',
  version_mismatch: 'SAPI-VAL-001',
  weak_password: 'SAPI-VAL-001',
  webhook_event_not_found: 'SAPI-VAL-001',
  webhook_event_not_resendable: 'SAPI-VAL-001',
  webhook_inactive: 'SAPI-VAL-001',
  webhook_limit_reached: 'SAPI-VAL-001',
  webhook_not_found: 'SAPI-VAL-001',
  webhook_url_not_allowed: 'SAPI-VAL-001',
  workspace_not_found: 'SAPI-VAL-001',
};

/**
 * A code outside both tables (past their types and test/contract/error-codes.test.ts: a cast, a code
 * made at run time) is still a refusal: VAL-001 (400) with its code as the issue, logged as a
 * warning to add it, never a 500.
 */
const UNMAPPED_SAPI_CODE: SapiCode = 'SAPI-VAL-001';

function envelope(code: SapiCode, message: string, details: SapiDetail[], request: FailedRequest, retryAfterSeconds?: number): RenderedError {
  const status = sapiStatusOf[code];
  const { category, retryable } = SAPI_ERRORS[code];
  const body: SapiErrorBody = { error: { category, code, message, retryable, correlation_id: request.requestId, details } };
  const headers: Record<string, string> = { [CORRELATION_HEADER]: request.requestId };
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return { status, body, headers };
}

/** A 422 list as details: `body.metadata.documentId`, `query.limit`, `path.providerDocumentId`. */
function issueDetails(issues: ValidationIssue[]): SapiDetail[] {
  return boundIssues(issues).map((issue) => ({
    field: issue.loc.reduce<string>((path, part, i) => (typeof part === 'number' ? `${path}[${part}]` : i === 0 ? String(part) : `${path}.${part}`), ''),
    issue: issue.msg,
  }));
}

/** The platform's own refusals, in SAPI's words. */
function platformRefusal(err: PlatformError, request: FailedRequest): RenderedError {
  switch (err.code) {
    case 'not_authenticated':
    case 'jwt_required':
      return envelope('SAPI-AUTH-001', 'send an access token from POST /sapi/auth/token in Authorization: Bearer', [{ field: 'Authorization', issue: 'required' }], request);
    case 'not_found':
      return envelope('SAPI-NOT-FOUND', `no route ${request.method} ${request.path}`, [], request);
    case 'method_not_allowed':
      return envelope('SAPI-NOT-FOUND', err.message, [], request);
    case 'service_unavailable':
      return envelope('SAPI-UNAVAILABLE', err.message, [], request, typeof err.extra.retry_after === 'number' ? err.extra.retry_after : undefined);
    case 'payload_too_large':
      return envelope('SAPI-PAYLOAD-TOO-LARGE', err.message, [{ field: 'body', issue: 'too large' }], request);
    case 'malformed_json':
      // where and why: line, column, offset and reason beside the issue (details entries take more fields)
      return envelope('SAPI-VAL-001', err.message, [{ field: 'body', issue: err.code, ...err.extra }], request);
    default:
      // a wrong content type, nesting too deep, an aborted upload
      return envelope('SAPI-VAL-001', err.message, [{ field: 'body', issue: err.code }], request);
  }
}

/** A native refusal raised by shared code under /sapi (a bad token, the monthly quota): its SAPI equivalent. */
function domainRefusal(err: DomainError, request: FailedRequest): RenderedError {
  const mapped = Object.hasOwn(sapiCodeOf, err.code);
  if (!mapped) request.warn?.({ code: err.code }, `a domain error code without a SAPI-SK code: answered ${UNMAPPED_SAPI_CODE}; add it to sapiCodeOf`);
  const code = mapped ? sapiCodeOf[err.code] : UNMAPPED_SAPI_CODE;
  switch (code) {
    // a token refused, the quota, no code lists (nothing can be checked): nothing more to say
    case 'SAPI-AUTH-001':
    case 'SAPI-QUOTA-INVOICE-LIMIT':
    case 'SAPI-VAL-VALIDATION-UNAVAILABLE':
      return envelope(code, err.message, [], request);
    // anything else the service cannot do now (a read model behind, numbering busy) is temporary
    case 'SAPI-UNAVAILABLE':
      return envelope(code, err.message, [], request, typeof err.extra.retry_after === 'number' ? err.extra.retry_after : undefined);
    default:
      return envelope(code, err.message, [{ field: typeof err.extra.field === 'string' ? err.extra.field : '', issue: err.code }], request);
  }
}

/** /sapi's error renderer: every failure in the SAPI-SK envelope, with the correlation id as a header too. */
export const sapiErrors: ErrorRenderer = {
  render(err, request) {
    if (err instanceof SapiRefusal) return envelope(err.sapiCode, err.message, err.details, request, err.retryAfterSeconds);
    if (err instanceof PlatformError) return platformRefusal(err, request);
    if (err instanceof RequestValidationError) return envelope('SAPI-VAL-001', 'the request is not valid', issueDetails(err.issues), request);
    if (err instanceof TooManyRequests) {
      const details = Object.entries(err.body).filter(([k]) => k === 'limit' || k === 'plan').map(([field, value]) => ({ field, issue: String(value) }));
      return envelope('SAPI-RATE-LIMIT', 'too many requests for this client; retry after the Retry-After seconds', details, request, err.retryAfterSeconds);
    }
    if (err instanceof DomainError) return domainRefusal(err, request);
    // a write that kept losing races to other writers on its streams after its bounded retries:
    // nothing is wrong with the request, so it is temporary and retryable, never a 500
    if (err instanceof WrongExpectedRevision) return envelope('SAPI-UNAVAILABLE', 'the document was changed by concurrent requests; retry', [], request, 1);
    return undefined;
  },
  internal: (request) => envelope('SAPI-INTERNAL', 'internal error; quote the correlation id to support', [], request),
  /**
   * `request_id` inside `error`, beside correlation_id (the same value, also X-Request-Id and
   * X-Correlation-Id): the envelope's `error` object takes further fields, its shape stays the spec's.
   */
  finish(body, request) {
    const error = body.error;
    if (error === null || typeof error !== 'object' || Array.isArray(error)) return { body, code: null };
    const code = (error as Record<string, unknown>).code;
    return { body: { ...body, error: { ...(error as Record<string, unknown>), request_id: request.requestId } }, code: typeof code === 'string' ? code : null };
  },
};
