import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { Actor } from '../../../commands/shared/actor.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RouteAuth = 'public' | 'api';

/** What a schema-less part of the request looks like to a handler. */
type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback;

/** Everything a handler may know about the request: already authenticated, parsed and validated. */
export interface RouteRequest<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  A extends RouteAuth = RouteAuth,
> {
  params: StaticOr<P, Record<string, never>>;
  query: StaticOr<Q, Record<string, never>>;
  /** the parsed and validated JSON body; undefined for routes without a body schema */
  body: StaticOr<B, undefined>;
  /** the exact bytes received (checksums and signatures are computed over these) */
  rawBody: Buffer;
  /** lower-case header names; repeated headers joined with ', ' */
  headers: Record<string, string | undefined>;
  /** the authenticated caller; public routes do not authenticate and get null */
  actor: A extends 'api' ? Actor : null;
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

export interface RouteResponseDoc {
  description: string;
  schema?: TSchema;
}

/** One HTTP operation: the single source for routing, validation and the OpenAPI document. */
export interface RouteSpec<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  A extends RouteAuth = RouteAuth,
> {
  method: HttpMethod;
  /** OpenAPI style, relative to the prefix: '/companies/{company_id}/customers' */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  params?: P;
  query?: Q;
  /** JSON body schema; routes without one still get rawBody (and no content-type check) */
  body?: B;
  /** the body may be left out (an empty request); the handler then gets undefined */
  bodyOptional?: boolean;
  /** overrides the app's body limit for this route */
  bodyLimitBytes?: number;
  responses: Record<number, RouteResponseDoc>;
  // method syntax on purpose: it lets a specific route be stored as the erased `Route`
  handle(req: RouteRequest<P, Q, B, A>): Promise<RouteResult>;
}

/** A route with its schema types erased, as routers collect them into lists. */
export type Route = RouteSpec<TObject | undefined, TObject | undefined, TSchema | undefined, RouteAuth>;

/**
 * Declares a route; params, query, body and actor types of `handle` are inferred from the
 * TypeBox schemas and the auth mode, so handlers need no casts.
 */
export function defineRoute<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  A extends RouteAuth = RouteAuth,
>(spec: RouteSpec<P, Q, B, A>): Route {
  return spec;
}
