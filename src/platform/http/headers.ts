import { Type } from '@sinclair/typebox';
import type { RouteHeaderDoc } from './route.ts';

/*
 * Headers a route reads or sets, declared on the route (`headerDocs`, `responses[status].headers`)
 * so the OpenAPI document names them. With response checks on (tests), a handler that reads a
 * request header, or sets a response header, its route does not declare is a 500: the document
 * cannot drift from the code.
 */

/** Request headers that carry the transport or the credential, not a parameter of any one operation. */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set(['authorization', 'content-type', 'content-length', 'host', 'x-api-key', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']);

/**
 * Response headers a route may set without declaring them: about the representation itself, the
 * browser's security policy, or Retry-After, which the standard 429 and 503 responses declare.
 */
export const REPRESENTATION_HEADERS: ReadonlySet<string> = new Set([
  'content-type', 'content-length', 'content-disposition', 'cache-control', 'pragma', 'vary', 'retry-after',
  'content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy',
]);

/** If-Match with the version the client read (`"3"`, `W/"3"` or `3`); `required` where the handler refuses a write without it (428). */
export function ifMatchHeader(description: string, required = false): RouteHeaderDoc {
  return { name: 'If-Match', description, schema: Type.String({ pattern: '^(W/)?"?[0-9]{1,15}"?$' }), required };
}

/** ETag: the resource's version, as If-Match sends it back. */
export const ETAG_HEADER: RouteHeaderDoc = { name: 'ETag', description: 'the version of the resource as answered (`"3"`): send it back in If-Match', schema: Type.String() };

/** Location: where the created resource (or the job) is read. */
export const LOCATION_HEADER: RouteHeaderDoc = { name: 'Location', description: 'the path of what was created, to GET it', schema: Type.String() };
