import type { Route } from './route.ts';

const SEGMENT = /^(?:[A-Za-z0-9._~-]+|\{[A-Za-z_][A-Za-z0-9_]*\})$/;

/** Names of `{param}` segments of an OpenAPI-style path. */
function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] ?? '');
}

/** '/companies/{company_id}' → '/companies/:company_id' (the router's syntax). */
export function toRouterPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

/**
 * Fails the boot on a route whose path and params schema disagree, or whose path the router
 * would read differently from the OpenAPI document.
 */
export function assertRoutePath(route: Route): void {
  const where = `${route.method} ${route.path} (${route.operationId})`;
  const segments = route.path.split('/').slice(1);
  if (!route.path.startsWith('/') || (route.path !== '/' && !segments.every((s) => SEGMENT.test(s)))) {
    throw new Error(`${where}: path segments must be literals or whole {param} placeholders`);
  }
  const inPath = pathParamNames(route.path).sort();
  const inSchema = Object.keys(route.params?.properties ?? {}).sort();
  if (inPath.join(',') !== inSchema.join(',')) {
    throw new Error(`${where}: path params [${inPath.join(', ')}] differ from params schema [${inSchema.join(', ')}]`);
  }
}

/** Literal segments sort before placeholders, so '/invoices/export' wins over '/invoices/{id}'. */
export function bySpecificity(a: Route, b: Route): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = (sa[i] ?? '').startsWith('{');
    const pb = (sb[i] ?? '').startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}
