/** Paths exempt from rate limiting: probes, docs (the landing page and the guides with them) and metrics must answer whatever a caller did. */
const EXEMPT_PATHS = ['/api/v1/health', '/docs', '/redoc', '/openapi.json', '/metrics', '/', '/guides'] as const;

// the documentation pages load their assets from below themselves; the guides are pages below /guides
const WITH_SUBPATHS = new Set(['/docs', '/redoc', '/guides']);

/** Whether the spec exempts this request: the paths above (also with a trailing slash) and every OPTIONS preflight. */
export function isExemptRequest(method: string, path: string): boolean {
  if (method.toUpperCase() === 'OPTIONS') return true;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return EXEMPT_PATHS.some((p) => trimmed === p || (WITH_SUBPATHS.has(p) && trimmed.startsWith(`${p}/`)));
}
