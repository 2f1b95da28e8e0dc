import type { Middleware, ParameterizedContext } from 'koa';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import { isDatabaseUnavailable } from '../db/outage.ts';
import type { PlatformState } from './state.ts';

/**
 * A refusal by the platform itself: a malformed or oversized request, missing credentials, no
 * such route. `code` names it; each front door's renderer gives it that door's body.
 */
export class PlatformError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** A request that failed schema validation: one 422 listing every issue. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(`request validation failed (${issues.length} issue${issues.length === 1 ? '' : 's'})`);
    this.name = 'RequestValidationError';
  }
}

/** 429 from a limit, with Retry-After in whole seconds; `body` holds the limit's own fields. */
export class TooManyRequests extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly body: Record<string, unknown>,
  ) {
    super('too many requests');
    this.name = 'TooManyRequests';
  }
}

/** Seconds a client is told to wait when the database cannot be reached (Retry-After). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database could not be reached: 503 with Retry-After, not a 500, since the request itself is
 * fine. A write cut off this way may or may not have landed; retrying with the same
 * Idempotency-Key (or after reading the resource) is safe.
 */
const databaseUnavailable = (): PlatformError =>
  new PlatformError('service_unavailable', 503, 'the service cannot reach its database; retry after the Retry-After seconds (a write may have landed: retry with the same Idempotency-Key, or read first)', {
    retry_after: DATABASE_RETRY_AFTER_SECONDS,
  });

/** What a renderer may know of the failed request. */
export interface FailedRequest {
  requestId: string;
  method: string;
  path: string;
  /** a request header, '' when absent */
  header(name: string): string;
  /** a warning on the request's log line (a renderer that answers but wants a fix known) */
  warn?(fields: Record<string, unknown>, message: string): void;
}

export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** How one front door answers failures: its own body shape for every error it knows. */
export interface ErrorRenderer {
  /** the answer to a thrown error, or undefined for one it does not know (a bug: logged, then `internal`) */
  render(error: unknown, request: FailedRequest): RenderedError | undefined;
  /** the 500 for an unknown error: no message or stack, they may carry internals */
  internal(request: FailedRequest): RenderedError;
  /**
   * Every error answer (status 400 and up, a JSON object) on its way out, whoever made it: this
   * renderer, the rate limiter, an answer kept for an Idempotency-Key and replayed. It adds what
   * only the request knows (its id, the deployment's upgrade URL) and names the answer's error code
   * for the request's log line (null when the body has none).
   */
  finish?(body: Record<string, unknown>, request: { requestId: string }): { body: Record<string, unknown>; code: string | null };
}

type Ctx = ParameterizedContext<PlatformState>;

const HTTP_CODES: Record<number, string> = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found', 406: 'not_acceptable', 415: 'unsupported_content_type' };

/** Koa's and http-errors' own exposed 4xx errors (e.g. from ctx.throw), as the platform's refusal. */
function exposedHttpError(err: unknown): PlatformError | undefined {
  if (!(err instanceof Error) || !('status' in err) || !('expose' in err)) return undefined;
  const { status, expose } = err as Error & { status: unknown; expose: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) return undefined;
  return new PlatformError(HTTP_CODES[status] ?? 'http_error', status, err.message);
}

/** During an outage every request fails the same way: one warning per this many ms, not one per request. */
const OUTAGE_WARNING_INTERVAL_MS = 5_000;

function answer(ctx: Ctx, renderer: ErrorRenderer, err: unknown, outage: { warnedAt: number }): void {
  const request: FailedRequest = {
    requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, header: (name) => ctx.get(name), warn: (fields, message) => ctx.state.log.warn(fields, message),
  };
  let rendered = renderer.render(exposedHttpError(err) ?? err, request);
  if (!rendered && isDatabaseUnavailable(err)) {
    const now = Date.now();
    if (now - outage.warnedAt >= OUTAGE_WARNING_INTERVAL_MS) {
      outage.warnedAt = now;
      ctx.state.log.warn({ err }, 'database unavailable: answering 503');
    }
    rendered = renderer.render(databaseUnavailable(), request);
  }
  if (!rendered) {
    ctx.state.log.error({ err }, 'unhandled error');
    rendered = renderer.internal(request);
  }
  ctx.status = rendered.status;
  for (const [k, v] of Object.entries(rendered.headers ?? {})) ctx.set(k, v);
  ctx.body = rendered.body;
}

const isJsonObject = (body: unknown): body is Record<string, unknown> =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function';

/** The renderer's finish on an error answer, thrown or returned; its code goes to the request's log line. */
function finish(ctx: Ctx, renderer: ErrorRenderer): void {
  if (ctx.status < 400 || !renderer.finish || !isJsonObject(ctx.body)) return;
  const finished = renderer.finish(ctx.body, { requestId: ctx.state.requestId });
  ctx.body = finished.body;
  ctx.state.errorCode = finished.code;
}

/** Every failure goes through the front door's renderer; nothing leaks. */
export function errorHandler(renderer: ErrorRenderer): Middleware<PlatformState> {
  const outage = { warnedAt: 0 };
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      answer(ctx, renderer, err, outage);
      finish(ctx, renderer);
      return;
    }
    // the router leaves these without a body
    if (ctx.body == null) {
      if (ctx.status === 404) answer(ctx, renderer, new PlatformError('not_found', 404, `no route for ${ctx.path}`), outage);
      else if (ctx.status === 405 || ctx.status === 501) {
        answer(ctx, renderer, new PlatformError('method_not_allowed', 405, `${ctx.method} is not allowed on ${ctx.path}`), outage);
      }
    }
    finish(ctx, renderer);
  };
}
