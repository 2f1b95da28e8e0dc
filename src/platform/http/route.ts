import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { PlatformActor } from './state.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * - `public`: no credentials needed (health, the sign-in routes' siblings);
 * - `api`: an API key, a user's access token or an OAuth client's token;
 * - `user`: a signed-in user's access token only (the /auth/* account routes); a key is 401 `jwt_required`;
 * - `sign_in`: no credentials needed, but a key is 401 `jwt_required` (login, refresh: /auth/* is JWT only).
 */
export type RouteAuth = 'public' | 'api' | 'user' | 'sign_in';

/** What a schema-less part of the request looks like to a handler. */
type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback;

/** Everything a handler may know about the request: already authenticated, parsed and validated. */
export interface RouteRequest<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  A extends RouteAuth = RouteAuth,
  Who extends PlatformActor = PlatformActor,
> {
  params: StaticOr<P, Record<string, never>>;
  query: StaticOr<Q, Record<string, never>>;
  /** the parsed and validated body (JSON, or a form where `form` is set); undefined for routes without a body schema */
  body: StaticOr<B, undefined>;
  /** the exact bytes received (checksums and signatures are computed over these) */
  rawBody: Buffer;
  /** lower-case header names; repeated headers joined with ', ' */
  headers: Record<string, string | undefined>;
  /** the authenticated caller; public and sign-in routes do not authenticate and get null */
  actor: A extends 'api' | 'user' ? Who : null;
  /** the client's address (the peer, or X-Forwarded-For behind a trusted proxy) */
  ip: string;
  requestId: string;
  /** the version sent in If-Match (already parsed), if any */
  ifMatch: number | undefined;
  /** per-request child logger carrying request_id */
  log: Logger;
}

export interface RouteResult {
  status: number;
  /** objects are sent as JSON; a Buffer or string is sent as-is (set content-type in headers) */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A header a route reads or sets, for the OpenAPI document (headers are not validated by schema). */
export interface RouteHeaderDoc {
  name: string;
  description: string;
  schema: TSchema;
  /** a request header the handler refuses to go without (documented as required; the handler still answers its own refusal) */
  required?: boolean;
}

export interface RouteResponseDoc {
  description: string;
  /** the JSON body; left out, an error status has the door's error body; null: no body at all */
  schema?: TSchema | null;
  /** the body's media type in the OpenAPI document when it is not JSON (text/csv, application/pdf) */
  mediaType?: string;
  /** response headers the route sets (ETAG_HEADER, LOCATION_HEADER…), for the OpenAPI document; with response checks on, setting an undeclared one is a 500 */
  headers?: RouteHeaderDoc[];
}

/** A body a route reads from `rawBody` itself (CSV, a multipart upload), for the OpenAPI document: media type → schema. */
export interface RawBodyDoc {
  description: string;
  content: Record<string, TSchema>;
}

/** One HTTP operation: the single source for routing, validation and the OpenAPI document. */
export interface RouteSpec<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  A extends RouteAuth = RouteAuth,
  Who extends PlatformActor = PlatformActor,
> {
  method: HttpMethod;
  /** OpenAPI style, relative to the prefix: '/companies/{company_id}/customers' */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  /** what the caller must be allowed to do (`api`/`user` routes): checked after authentication, 403 otherwise */
  permission?: string;
  params?: P;
  query?: Q;
  /** JSON body schema; routes without one still get rawBody (and no content-type check) */
  body?: B;
  /** documents a body the handler reads from rawBody (no validation): only for routes without `body` */
  rawBodyDoc?: RawBodyDoc;
  /** also accept application/x-www-form-urlencoded (fields as strings), as RFC 6749 token requests are sent */
  form?: boolean;
  /** the body may be left out (an empty request); the handler then gets undefined */
  bodyOptional?: boolean;
  /** overrides the app's body limit for this route */
  bodyLimitBytes?: number;
  responses: Record<number, RouteResponseDoc>;
  /**
   * Every request header the handler reads (If-Match through `ifMatch` included), documented as
   * header parameters; with response checks on (tests) reading an undeclared one is a 500.
   * Helpers: ifMatchHeader() in headers.ts.
   */
  headerDocs?: RouteHeaderDoc[];
  // method syntax on purpose: it lets a specific route be stored as the erased `Route`
  handle(req: RouteRequest<P, Q, B, A, Who>): Promise<RouteResult>;
}

/** A route with its schema types erased, as routers collect them into lists. */
export type Route<Who extends PlatformActor = PlatformActor> = RouteSpec<TObject | undefined, TObject | undefined, TSchema | undefined, RouteAuth, Who>;

/**
 * The route declarer of a front door whose callers are `Who`: params, query, body and actor types
 * of `handle` are inferred from the TypeBox schemas and the auth mode, so handlers need no casts.
 */
export function routeDeclarer<Who extends PlatformActor>() {
  return function defineRoute<
    P extends TObject | undefined = undefined,
    Q extends TObject | undefined = undefined,
    B extends TSchema | undefined = undefined,
    A extends RouteAuth = RouteAuth,
  >(spec: RouteSpec<P, Q, B, A, Who>): Route<Who> {
    return spec;
  };
}

/** Declares a route whose handler needs no more of its caller than the platform knows. */
export const defineRoute = routeDeclarer<PlatformActor>();
