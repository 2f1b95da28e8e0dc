import type { Middleware, ParameterizedContext } from 'koa';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { InvalidFields } from '../../../commands/shared/invalid-fields.ts';
import { InvoiceRuleViolation } from '../../../commands/invoices/rule-violation.ts';
import { WrongExpectedRevision } from '../../eventstore/port.ts';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import { boundIssues } from './bounded-issues.ts';
import type { PlatformState } from './state.ts';

/** A request that failed schema validation: answered as 422 with pydantic-like entries. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(`request validation failed (${issues.length} issue${issues.length === 1 ? '' : 's'})`);
    this.name = 'RequestValidationError';
  }
}

/**
 * 429 from a limit: the spec's top-level body (`{error: 'rate_limit_exceeded', retry_after, ...}`,
 * not `detail`), with Retry-After in whole seconds.
 */
export class TooManyRequests extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly body: Record<string, unknown>,
  ) {
    super('too many requests');
    this.name = 'TooManyRequests';
  }
}

type Ctx = ParameterizedContext<PlatformState>;

function send(ctx: Ctx, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

function detail(error: string, message: string | undefined, extra: Record<string, unknown> = {}) {
  return { detail: { error, ...(message === undefined ? {} : { message }), ...extra } };
}

function concurrency(ctx: Ctx, err: WrongExpectedRevision): void {
  // with If-Match the client asserted a version: it is stale (412); without, two writers raced (409)
  if (ctx.get('if-match') !== '') {
    const current = typeof err.actual === 'number' ? { current_version: err.actual } : {};
    send(ctx, 412, detail('version_mismatch', 'the resource has changed since the version given in If-Match', current));
  } else {
    send(ctx, 409, detail('concurrency_conflict', 'the resource was changed by a concurrent request; retry'));
  }
}

const HTTP_CODES: Record<number, string> = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found', 406: 'not_acceptable', 415: 'unsupported_content_type' };

/** Koa's and http-errors' own exposed 4xx errors (e.g. from ctx.throw). */
function exposedHttpError(err: unknown): { status: number; message: string } | undefined {
  if (!(err instanceof Error) || !('status' in err) || !('expose' in err)) return undefined;
  const { status, expose } = err as Error & { status: unknown; expose: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) return undefined;
  return { status, message: err.message };
}

function toBody(ctx: Ctx, err: unknown): void {
  if (err instanceof DomainError) {
    // a refusal that says when to come back says it in the header too
    if (err.status === 429 && typeof err.extra.retry_after === 'number') ctx.set('Retry-After', String(err.extra.retry_after));
    return send(ctx, err.status, detail(err.code, err.message, err.extra));
  }
  // the echo is bounded: a huge or deep request never makes a huge or deep answer
  if (err instanceof RequestValidationError) return send(ctx, 422, { detail: boundIssues(err.issues) });
  // a domain rule refusing field values (a checksum, a pairing) answers like a schema failure
  if (err instanceof InvalidFields) return send(ctx, 422, { detail: boundIssues(err.problems) });
  // the invoice-validation flavour: business-rule findings with rule ids and severities
  if (err instanceof InvoiceRuleViolation) return send(ctx, 422, { detail: { message: err.message, errors: err.findings } });
  if (err instanceof WrongExpectedRevision) return concurrency(ctx, err);
  if (err instanceof TooManyRequests) {
    ctx.set('Retry-After', String(err.retryAfterSeconds));
    return send(ctx, 429, { error: 'rate_limit_exceeded', retry_after: err.retryAfterSeconds, ...err.body });
  }
  const http = exposedHttpError(err);
  if (http) return send(ctx, http.status, detail(HTTP_CODES[http.status] ?? 'http_error', http.message));
  ctx.state.log.error({ err }, 'unhandled error');
  // no message or stack: they may carry internals; the request id finds the log line
  send(ctx, 500, detail('internal_error', undefined, { request_id: ctx.state.requestId }));
}

/** Every failure becomes the spec's `{detail: {error, ...}}` body (or the 422 list); nothing leaks. */
export function errorHandler(): Middleware<PlatformState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      toBody(ctx, err);
      return;
    }
    // the router leaves these without a body
    if (ctx.body == null) {
      if (ctx.status === 404) send(ctx, 404, detail('not_found', `no route for ${ctx.path}`));
      else if (ctx.status === 405 || ctx.status === 501) {
        send(ctx, 405, detail('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`));
      }
    }
  };
}
