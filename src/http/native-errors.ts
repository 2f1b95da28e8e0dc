import { DomainError } from '../../commands/shared/domain-error.ts';
import { InvalidFields } from '../../commands/shared/invalid-fields.ts';
import { InvoiceRuleViolation } from '../../commands/invoices/rule-violation.ts';
import { WrongExpectedRevision } from '../eventstore/port.ts';
import { VersionMismatch } from '../handling/append.ts';
import { PlatformError, RequestValidationError, TooManyRequests, boundIssues, type ErrorRenderer, type RenderedError } from './platform/index.ts';

/* The native API's error bodies (spec: `{detail: {error, message, ...}}`, the 422 lists, the 429). */

function detail(error: string, message: string | undefined, extra: Record<string, unknown> = {}) {
  return { detail: { error, ...(message === undefined ? {} : { message }), ...extra } };
}

function refusal(err: DomainError | PlatformError): RenderedError {
  // a refusal that says when to come back (429, 503) says it in the header too
  const headers = typeof err.extra.retry_after === 'number' ? { 'Retry-After': String(err.extra.retry_after) } : undefined;
  return { status: err.status, body: detail(err.code, err.message, err.extra), ...(headers ? { headers } : {}) };
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

export const nativeErrors: ErrorRenderer = {
  render(err) {
    if (err instanceof DomainError || err instanceof PlatformError) return refusal(err);
    // the echo is bounded: a huge or deep request never makes a huge or deep answer
    if (err instanceof RequestValidationError) return { status: 422, body: { detail: boundIssues(err.issues) } };
    // a domain rule refusing field values (a checksum, a pairing) answers like a schema failure
    if (err instanceof InvalidFields) return { status: 422, body: { detail: boundIssues(err.problems) } };
    // the invoice-validation flavour: business-rule findings with rule ids and severities
    if (err instanceof InvoiceRuleViolation) return { status: 422, body: { detail: { message: err.message, errors: err.findings } } };
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
