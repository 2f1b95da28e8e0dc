import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { DomainErrorCode } from '../../../commands/shared/error-codes.ts';
import { InvalidFields } from '../../../commands/shared/invalid-fields.ts';
import { InvoiceRuleViolation } from '../../../commands/invoices/rule-violation.ts';
import { WrongExpectedRevision } from '../../platform/eventstore/port.ts';
import { VersionMismatch } from '../../platform/handling/append.ts';
import { PlatformError, RequestValidationError, TooManyRequests, boundIssues, type ErrorRenderer, type FailedRequest, type RenderedError } from '../../platform/http/index.ts';

/* The native API's error bodies (spec: `{detail: {error, message, ...}}`, the 422 lists, the 429). */

function detail(error: string, message: string | undefined, extra: Record<string, unknown> = {}) {
  return { detail: { error, ...(message === undefined ? {} : { message }), ...extra } };
}

/** The native door's status of every domain error code (spec: Errors; the codes it does not list are ours). */
export const nativeStatusOf: Record<DomainErrorCode, number> = {
  api_key_exists: 409,
  api_key_not_found: 404,
  api_key_required: 401,
  api_key_revoked: 409,
  as4_message_id_taken: 409,
  bulk_import_job_exists: 409,
  bulk_import_job_not_found: 404,
  code_lists_unavailable: 503,
  company_exists: 409,
  company_has_no_participant: 409,
  company_not_found: 404,
  company_registry_unavailable: 502,
  credit_limit_exceeded: 422,
  credit_note_not_found: 404,
  currency_mismatch: 422,
  customer_exists: 409,
  customer_not_found: 404,
  customer_vat_id_conflict: 409,
  export_too_large: 422,
  feature_not_available: 403,
  file_empty: 422,
  file_missing: 422,
  idempotency_claim_lost: 409,
  idempotency_key_in_progress: 409,
  idempotency_key_reused: 422,
  idempotency_key_secret_not_replayable: 409,
  if_match_required: 428,
  insufficient_role: 403,
  invalid_api_key: 401,
  invalid_as_of: 422,
  invalid_credentials: 401,
  invalid_expiry: 422,
  invalid_login_challenge: 401,
  invalid_name: 422,
  invalid_numbering_pattern: 422,
  invalid_participant_id: 422,
  invalid_refresh_token: 401,
  invalid_scope: 422,
  invalid_status: 409,
  invalid_token: 401,
  invalid_totp_code: 401,
  invoice_exists: 409,
  invoice_not_found: 404,
  invoice_number_conflict: 409,
  invoice_number_immutable: 409,
  locked_credit_note: 409,
  malformed_request: 400,
  name_required: 422,
  name_too_long: 422,
  not_creditable: 409,
  not_payable: 409,
  numbering_busy: 503,
  oauth_client_exists: 409,
  oauth_client_not_found: 404,
  operator_only: 403,
  organisation_exists: 409,
  organisation_not_found: 404,
  participant_lookup_failed: 502,
  pay_by_square_no_account: 409,
  pay_by_square_nothing_due: 409,
  payload_too_large: 413,
  payment_not_found: 404,
  peppol_delivery_failed: 502,
  peppol_receipt_not_found: 404,
  peppol_report_not_sendable: 409,
  plan_required: 422,
  read_model_behind: 503,
  read_model_degraded: 503,
  refresh_family_exists: 409,
  refund_exceeds_remaining: 422,
  reviewer_must_be_user: 403,
  sapi_client_exists: 409,
  sapi_client_not_found: 404,
  sapi_document_exists: 409,
  sapi_document_not_found: 404,
  sapi_document_not_processing: 409,
  scopes_required: 422,
  self_review_not_allowed: 403,
  too_many_attempts: 429,
  totp_already_enabled: 409,
  totp_not_enabled: 409,
  totp_not_pending: 409,
  unsupported_content_type: 400,
  usage_limit_exceeded: 402,
  user_exists: 409,
  user_not_found: 404,
  version_mismatch: 412,
  weak_password: 422,
  webhook_event_not_found: 404,
  webhook_event_not_resendable: 409,
  webhook_inactive: 409,
  webhook_limit_reached: 409,
  webhook_not_found: 404,
  webhook_url_not_allowed: 422,
  workspace_not_found: 404,
};

/**
 * The status of a code outside the table. The table is typed over every declared code, and
 * test/contract/error-codes.test.ts fails for a code thrown anywhere that the table lacks, so this is
 * reached only past both (a cast, a code made at run time). It is a refusal all the same, not a
 * bug of the request's handling: 422 (refused as sent) with its code and message, logged as a
 * warning to add the code, rather than a 500 that hides them.
 */
export const UNMAPPED_REFUSAL_STATUS = 422;

function statusOf(err: DomainError | PlatformError, request: FailedRequest): number {
  if (err instanceof PlatformError) return err.status;
  if (Object.hasOwn(nativeStatusOf, err.code)) return nativeStatusOf[err.code as DomainErrorCode];
  request.warn?.({ code: err.code }, 'a domain error code without a native status: answered 422; add it to nativeStatusOf');
  return UNMAPPED_REFUSAL_STATUS;
}

function refusal(err: DomainError | PlatformError, request: FailedRequest): RenderedError {
  // a refusal that says when to come back (429, 503) says it in the header too
  const headers = typeof err.extra.retry_after === 'number' ? { 'Retry-After': String(err.extra.retry_after) } : undefined;
  return { status: statusOf(err, request), body: detail(err.code, err.message, err.extra), ...(headers ? { headers } : {}) };
}

/**
 * 412 only when the stream the client named by If-Match is no longer at that version (the command
 * path's VersionMismatch); any other lost race, on that stream without If-Match or on another
 * stream the command writes (a month's usage), is 409 whatever the headers say.
 */
function concurrency(err: WrongExpectedRevision): RenderedError {
  if (err instanceof VersionMismatch) {
    const current = err.current === null ? {} : { current_version: err.current };
    return { status: 412, body: detail('version_mismatch', 'the resource has changed since the version given in If-Match', current) };
  }
  return { status: 409, body: detail('concurrency_conflict', 'the resource was changed by a concurrent request; retry') };
}

/** The refusals that tell the caller where to upgrade its plan (spec: Errors, Rate limiting). */
const UPGRADE_CODES = new Set(['usage_limit_exceeded', 'feature_not_available', 'rate_limit_exceeded']);

/** An error body's code: `detail.error`, the 429's top-level `error`, or the 422 flavour's name. */
function codeOf(body: Record<string, unknown>): string | null {
  const detail = body.detail;
  if (Array.isArray(detail)) return 'request_validation';
  if (detail !== null && typeof detail === 'object') {
    const error = (detail as Record<string, unknown>).error;
    if (typeof error === 'string') return error;
    return Array.isArray((detail as Record<string, unknown>).errors) ? 'invoice_validation' : null;
  }
  return typeof body.error === 'string' ? body.error : null;
}

/**
 * Every native error body leaves with `request_id` at its top level (the X-Request-Id header's
 * value): the one place all three shapes (`{detail: {…}}`, the 422 `{detail: […]}`, the 429's
 * top-level body) can carry it without changing what the spec defines. The refusals that point to
 * a plan upgrade get the deployment's `upgrade_url` (UPGRADE_URL) where their fields are.
 */
function finishNative(upgradeUrl: string | null) {
  return (body: Record<string, unknown>, request: { requestId: string }) => {
    const code = codeOf(body);
    let out: Record<string, unknown> = { ...body, request_id: request.requestId };
    if (upgradeUrl !== null && code !== null && UPGRADE_CODES.has(code)) {
      const detail = body.detail;
      out = detail !== null && typeof detail === 'object' && !Array.isArray(detail)
        ? { ...out, detail: { ...(detail as Record<string, unknown>), upgrade_url: upgradeUrl } }
        : { ...out, upgrade_url: upgradeUrl };
    }
    return { body: out, code };
  };
}

/** The native door's renderer for a deployment: its upgrade URL (config `upgradeUrl`) in the refusals that name one. */
export function nativeErrorRenderer(deployment: { upgradeUrl: string }): ErrorRenderer {
  return { ...nativeErrors, finish: finishNative(deployment.upgradeUrl) };
}

/** The native renderer without a deployment (tests of the platform): request ids, no upgrade URL. */
export const nativeErrors: ErrorRenderer = {
  finish: finishNative(null),
  render(err, request) {
    if (err instanceof DomainError || err instanceof PlatformError) return refusal(err, request);
    // the echo is bounded: a huge or deep request never makes a huge or deep answer
    if (err instanceof RequestValidationError) return { status: 422, body: { detail: boundIssues(err.issues) } };
    // a domain rule refusing field values (a checksum, a pairing) answers like a schema failure
    if (err instanceof InvalidFields) return { status: 422, body: { detail: boundIssues(err.problems) } };
    // the invoice-validation flavour: the refusing findings in errors, warnings in their own list (as validate answers)
    if (err instanceof InvoiceRuleViolation) return { status: 422, body: { detail: { message: err.message, errors: err.errors, warnings: err.warnings } } };
    if (err instanceof WrongExpectedRevision) return concurrency(err);
    if (err instanceof TooManyRequests) {
      // the spec's 429 is top level, not under `detail`
      return { status: 429, headers: { 'Retry-After': String(err.retryAfterSeconds) }, body: { error: 'rate_limit_exceeded', retry_after: err.retryAfterSeconds, ...err.body } };
    }
    return undefined;
  },
  // the request id finds the log line
  internal: (request) => ({ status: 500, body: detail('internal_error', undefined, { request_id: request.requestId }) }),
};
