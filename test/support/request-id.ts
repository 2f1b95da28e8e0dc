/**
 * An error body without its `request_id`: every answer carries its own (the X-Request-Id
 * header's value), so two refusals that must be alike are compared on the rest.
 */
export function withoutRequestId(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { request_id: _ignored, ...rest } = body as Record<string, unknown>;
  if ('error' in rest && rest['error'] !== null && typeof rest['error'] === 'object') {
    const { request_id: _inner, ...error } = rest['error'] as Record<string, unknown>;
    return { ...rest, error };
  }
  return rest;
}
