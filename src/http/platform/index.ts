export { createHttpApp, type HttpAppOptions } from './app.ts';
export { defineRoute, type Route, type RouteSpec, type RouteRequest, type RouteResult, type RouteResponseDoc, type HttpMethod, type RouteAuth } from './route.ts';
export { buildOpenApi, type OpenApiDocument, type OpenApiInfo } from './openapi.ts';
export { RequestValidationError } from './errors.ts';
export { parseIfMatch } from './if-match.ts';
export { DEFAULT_BODY_LIMIT_BYTES } from './body.ts';
export type { Caller, PlatformState } from './state.ts';
export type { Headers, ResolveCaller } from './pipeline.ts';
export { TooManyRequests } from './errors.ts';
