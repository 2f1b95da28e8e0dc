import { SAPI_ERRORS, SapiRefusal, type SapiCode, type SapiDetail } from '../../../commands/sapi/errors.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import type { SapiErrorBody } from '../../../schemas/sapi/errors.ts';
import { PlatformError, RequestValidationError, TooManyRequests, boundIssues, type ErrorRenderer, type FailedRequest, type RenderedError } from '../../platform/http/index.ts';

/** The correlation id is the request id: in the envelope, in this header, and on the log line. */
export const CORRELATION_HEADER = 'X-Correlation-Id';

function envelope(code: SapiCode, message: string, details: SapiDetail[], request: FailedRequest, retryAfterSeconds?: number): RenderedError {
  const { status, category, retryable } = SAPI_ERRORS[code];
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
    default:
      // malformed JSON, a wrong content type, nesting too deep, an aborted upload
      return envelope('SAPI-VAL-001', err.message, [{ field: 'body', issue: err.code }], request);
  }
}

/** A native refusal raised by shared code under /sapi (a bad token, the monthly quota): its SAPI equivalent. */
function domainRefusal(err: DomainError, request: FailedRequest): RenderedError {
  if (err.status === 401) return envelope('SAPI-AUTH-001', err.message, [], request);
  if (err.status === 402) return envelope('SAPI-QUOTA-INVOICE-LIMIT', err.message, [], request);
  // without code lists nothing can be checked; anything else unavailable (a read model behind, numbering busy) is temporary
  if (err.status === 503 && err.code === 'code_lists_unavailable') return envelope('SAPI-VAL-VALIDATION-UNAVAILABLE', err.message, [], request);
  if (err.status === 503) return envelope('SAPI-UNAVAILABLE', err.message, [], request, typeof err.extra.retry_after === 'number' ? err.extra.retry_after : undefined);
  return envelope('SAPI-VAL-001', err.message, [{ field: typeof err.extra.field === 'string' ? err.extra.field : '', issue: err.code }], request);
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
    return undefined;
  },
  internal: (request) => envelope('SAPI-INTERNAL', 'internal error; quote the correlation id to support', [], request),
};
