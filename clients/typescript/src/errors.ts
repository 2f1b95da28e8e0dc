/**
 * An answer that is not a success, as an Error: its status, its error code (the native
 * `detail.error`, the rate limit's top-level `error`, or the SAPI-SK `error.code`), the body as
 * sent and the request id to quote to support.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;
  readonly requestId: string | null;
  constructor(response: Response, body: unknown) {
    const code = errorCode(body);
    super(`${response.status}${code ? ` ${code}` : ''}: ${response.url}`);
    this.name = 'ServiceError';
    this.status = response.status;
    this.code = code;
    this.body = body;
    this.requestId = response.headers.get('x-request-id') ?? response.headers.get('x-correlation-id');
  }
}

/**
 * The data of a call that succeeded, else a thrown ServiceError: for callers who prefer
 * exceptions to openapi-fetch's `{ data, error }`.
 *
 *   const invoice = ok(await client.POST('/companies/{company_id}/invoices', { params, body }));
 */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.error === undefined) return result.data as T;
  throw new ServiceError(result.response, result.error);
}

function errorCode(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { detail, error } = body as { detail?: unknown; error?: unknown };
  if (typeof detail === 'object' && detail !== null && typeof (detail as { error?: unknown }).error === 'string') return (detail as { error: string }).error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string') return (error as { code: string }).code;
  return null;
}
