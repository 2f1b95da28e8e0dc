import type { TObject, TSchema } from '@sinclair/typebox';
import { ErrorBody, InvoiceRulesBody, ValidationErrorBody } from '../../../schemas/common/errors.ts';
import { MAX_JSON_DEPTH } from './body.ts';
import { MAX_ECHOED_DEPTH, MAX_ECHOED_ENTRIES, MAX_ECHOED_STRING, MAX_ISSUES } from './bounded-issues.ts';
import { SchemaComponents } from './components.ts';
import type { RawBodyDoc, Route, RouteResponseDoc } from './route.ts';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  license?: { name: string; identifier?: string; url?: string };
}

type Json = Record<string, unknown>;

/** What one front door's OpenAPI document says beyond its routes: who it is, how callers prove it, how it refuses. */
export interface OpenApiDoor {
  info: OpenApiInfo;
  /** a description of every tag its routes use: a route with an undescribed tag fails the boot */
  tags: Readonly<Record<string, string>>;
  securitySchemes: Record<string, Json>;
  /** what an authenticated (`auth: 'api'`) route accepts, as alternatives */
  security: Record<string, string[]>[];
  /** the body of the platform's own refusals (400, 401, 413, 500) and of a route's error status without a schema */
  errorBody: TSchema;
  /** the body of a 422 without a schema of its own */
  validationErrorBody: TSchema;
  /** other bodies a 422 may carry on any route of the door (the native invoice-rules flavour) */
  moreValidationBodies?: TSchema[];
  /** the rate limiter's 429 on every route it counts (all but the exempt ones); null where no limiter runs */
  rateLimited: { description: string; schema: TSchema; exempt(path: string): boolean } | null;
  /** headers the door sets on every response besides X-Request-Id (the SAPI correlation id) */
  responseHeaders?: Record<string, { description: string; schema: Json }>;
  /** the hosts integrators call (the spec's two environments); the running service's own address is added first when served */
  hosts?: PublicHosts;
}

/** Production and sandbox are separate hosts with identical request shapes (the spec's "Addresses"). */
export interface PublicHosts {
  sandbox: string;
  production: string;
}

export interface OpenApiServer {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  servers: OpenApiServer[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Json>>;
  webhooks?: Record<string, unknown>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; headers: Record<string, Json>; securitySchemes: Record<string, Json> };
}

/** The native door's error bodies, named; another door's have an `$id` of their own. */
const NAMED_SCHEMAS = new Map<TSchema, string>([
  [ErrorBody, 'ErrorBody'],
  [ValidationErrorBody, 'ValidationErrorBody'],
  [InvoiceRulesBody, 'InvoiceRulesBody'],
]);

/** Responses every route may give whatever it declares: produced by the platform itself, in the door's error shape. */
function standardResponses(c: SchemaComponents, door: OpenApiDoor): Record<string, Json> {
  const json = (schema: TSchema): Json => ({ 'application/json': { schema: c.use(schema) } });
  const every = headerRefs(door);
  const withHeaders = (responses: Record<string, Json>) =>
    Object.fromEntries(Object.entries(responses).map(([name, r]) => [name, { ...r, headers: { ...every, ...(r['headers'] as Json | undefined) } }]));
  return withHeaders({
    BadRequest: { description: `Malformed request: bad JSON (\`malformed_json\`), arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels (\`json_too_deep\`, carries max_depth), wrong content type, or invalid If-Match`, content: json(door.errorBody) },
    Unauthorized: { description: 'Missing or invalid API key or token', content: json(door.errorBody) },
    PayloadTooLarge: { description: 'Request body above the size limit', content: json(door.errorBody) },
    ValidationError: {
      description: `Request validation failed (path, query or body). Any string (object keys too) holding NUL, a lone surrogate, U+FFFE, U+FFFF or a control character other than tab, LF and CR is \`string_forbidden_character\`; a number too large to be finite is \`finite_number\`. At most ${MAX_ISSUES} entries (then one \`too_many_errors\`); \`input\` is shortened: strings cut at ${MAX_ECHOED_STRING} characters with '…', lists and objects at ${MAX_ECHOED_ENTRIES} entries and ${MAX_ECHOED_DEPTH} levels.`,
      content: json(door.validationErrorBody),
    },
    Conflict: { description: 'A concurrent request changed the resource first (`concurrency_conflict`): read it again and retry', content: json(door.errorBody) },
    PreconditionFailed: { description: 'If-Match names a version the resource is no longer at (`version_mismatch`, carries current_version)', content: json(door.errorBody) },
    InternalError: { description: 'Unexpected failure; quote the request id when reporting it', content: json(door.errorBody) },
    ServiceUnavailable: {
      description: 'The service cannot reach its database (`service_unavailable`); retry after Retry-After. A write cut off this way may have landed: retry it with the same Idempotency-Key, or read first',
      headers: { 'Retry-After': { description: 'whole seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } },
      content: json(door.errorBody),
    },
    ...(door.rateLimited
      ? {
          TooManyRequests: {
            description: door.rateLimited.description,
            headers: { 'Retry-After': { description: 'whole seconds until a request is let through again', schema: { type: 'integer', minimum: 1 } } },
            content: json(door.rateLimited.schema),
          },
        }
      : {}),
  });
}
const stdRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/** Headers on every response, the platform's own refusals included: X-Request-Id, and the door's. */
function everyResponseHeaders(door: OpenApiDoor): Record<string, { description: string; schema: Json }> {
  return {
    'X-Request-Id': { description: 'this request\'s id (the client\'s own when it sent a well-formed one): quote it when reporting a problem', schema: { type: 'string' } },
    ...door.responseHeaders,
  };
}
const headerComponent = (name: string) => name.replace(/[^A-Za-z0-9]/g, '');
const headerRefs = (door: OpenApiDoor): Record<string, Json> =>
  Object.fromEntries(Object.keys(everyResponseHeaders(door)).map((name) => [name, { $ref: `#/components/headers/${headerComponent(name)}` }]));

function parameters(c: SchemaComponents, where: 'path' | 'query', schema: TObject | undefined): Json[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => {
    const s = c.use(prop);
    // a query key with a default may be left out, even though handlers always receive it
    const isRequired = where === 'path' || (required.has(name) && (prop as { default?: unknown }).default === undefined);
    return {
      name,
      in: where,
      required: isRequired,
      ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}),
      schema: s,
    };
  });
}

/**
 * The bodies the platform itself may answer `status` with on this route, whatever the route
 * declares: a malformed request or If-Match (400), a refused credential (401), a body too large
 * (413), request validation (422), and at 422 also a domain refusal in the door's error body.
 */
function platformBodies(door: OpenApiDoor, route: Route, status: number): TSchema[] {
  const validated = route.params !== undefined || route.query !== undefined || route.body !== undefined;
  switch (status) {
    case 400:
    case 500:
      return [door.errorBody];
    case 401:
      return route.auth === 'public' ? [] : [door.errorBody];
    case 413:
      return route.body !== undefined || route.rawBodyDoc !== undefined ? [door.errorBody] : [];
    case 422:
      return [...(validated ? [door.validationErrorBody] : []), door.errorBody, ...(door.moreValidationBodies ?? [])];
    default:
      return status >= 400 ? [door.errorBody] : [];
  }
}

/** `createInvoice` → `CreateInvoice`: the stem of the names of an operation's inline bodies. */
const pascal = (operationId: string) => operationId.charAt(0).toUpperCase() + operationId.slice(1);

/** The name an inline response body takes: `<Op>Response` for the operation's first success status, else with the status. */
function responseName(route: Route, status: number): string {
  const success = Object.keys(route.responses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0];
  return `${pascal(route.operationId)}Response${status === success ? '' : String(status)}`;
}

function response(c: SchemaComponents, door: OpenApiDoor, route: Route, status: number, doc: RouteResponseDoc): Json {
  // an error status has the door's error body too where the platform answers it; null: no body at all
  const own = doc.schema === null ? [] : doc.schema ? [doc.schema] : [];
  const platform = doc.schema === null || (doc.schema && status !== 400 && status !== 401 && status !== 413 && status !== 422) ? [] : platformBodies(door, route, status);
  const bodies = [...new Set([...own, ...platform])];
  const mediaType = status < 400 ? (doc.mediaType ?? 'application/json') : 'application/json';
  const headers = { headers: { ...headerRefs(door), ...Object.fromEntries((doc.headers ?? []).map((h) => [h.name, { description: h.description, schema: c.use(h.schema) }])) } };
  if (bodies.length === 0) return { description: doc.description, ...headers };
  const named = (b: TSchema) => (b === doc.schema ? c.body(b, responseName(route, status)) : c.use(b));
  const schema = bodies.length === 1 ? named(bodies[0] as TSchema) : { anyOf: bodies.map(named) };
  return { description: doc.description, ...headers, content: { [mediaType]: { schema } } };
}

function operation(c: SchemaComponents, door: OpenApiDoor, prefix: string, route: Route): Json {
  const responses: Record<string, Json> = {};
  for (const [status, doc] of Object.entries(route.responses)) responses[status] = response(c, door, route, Number(status), doc);
  const add = (status: number, name: string, when: boolean) => {
    if (when && !(String(status) in responses)) responses[String(status)] = stdRef(name);
  };
  // every route reads If-Match (a malformed one is 400), GET and public ones too
  add(400, 'BadRequest', true);
  add(401, 'Unauthorized', route.auth !== 'public');
  add(413, 'PayloadTooLarge', route.body !== undefined || route.rawBodyDoc !== undefined);
  // a write races another, or meets an If-Match it no longer matches, on every route that writes
  add(409, 'Conflict', route.method !== 'GET');
  add(412, 'PreconditionFailed', route.method !== 'GET');
  add(422, 'ValidationError', route.params !== undefined || route.query !== undefined || route.body !== undefined);
  add(429, 'TooManyRequests', door.rateLimited !== null && !door.rateLimited.exempt(prefix + route.path));
  add(500, 'InternalError', true);
  add(503, 'ServiceUnavailable', true);

  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    parameters: [
      ...parameters(c, 'path', route.params), ...parameters(c, 'query', route.query),
      ...(route.headerDocs ?? []).map((h) => ({ name: h.name, in: 'header', required: h.required === true, description: h.description, schema: c.use(h.schema) })),
    ],
    ...(route.body ? { requestBody: jsonRequestBody(c, route, route.body) } : {}),
    ...(route.rawBodyDoc ? { requestBody: rawRequestBody(c, route, route.rawBodyDoc) } : {}),
    responses,
    security: route.auth === 'api' ? door.security : [],
  };
}

/** A JSON body, and the same fields as an HTML form where the route takes one (RFC 6749 token requests). */
function jsonRequestBody(c: SchemaComponents, route: Route, body: TSchema): Json {
  const schema = c.body(body, `${pascal(route.operationId)}Request`);
  return {
    required: route.bodyOptional !== true,
    content: { 'application/json': { schema }, ...(route.form ? { 'application/x-www-form-urlencoded': { schema } } : {}) },
  };
}

// `text/csv` → `Csv`, `multipart/form-data` → `FormData`: tells apart the bodies of one route by their media type
const mediaTypeSuffix = (mediaType: string) => (mediaType.split('/')[1] ?? mediaType).split(/[^A-Za-z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

function rawRequestBody(c: SchemaComponents, route: Route, doc: RawBodyDoc): Json {
  const content: Record<string, Json> = {};
  const several = Object.keys(doc.content).length > 1;
  for (const [mediaType, schema] of Object.entries(doc.content)) {
    content[mediaType] = { schema: c.body(schema, `${pascal(route.operationId)}${several ? mediaTypeSuffix(mediaType) : ''}Request`) };
  }
  return { required: true, description: doc.description, content };
}

function schemasOf(route: Route): TSchema[] {
  const responses = Object.values(route.responses).flatMap((r) => (r.schema ? [r.schema] : []));
  const raw = Object.values(route.rawBodyDoc?.content ?? {});
  return [route.params, route.query, route.body, ...responses, ...raw].filter((s): s is TSchema => s !== undefined);
}

interface OpenApiOptions {
  prefix: string;
  door: OpenApiDoor;
  /** schemas with an `$id` that routes reach through `Type.Ref`; listed as components */
  schemas?: readonly TSchema[];
  /** the `webhooks` section (OpenAPI 3.1): what the service POSTs to subscribers */
  webhooks?: Record<string, unknown>;
}

/** The two environments as one absolute server with variables: generators and "Try it" need absolute URLs. */
function environmentServer(hosts: PublicHosts, prefix: string): OpenApiServer {
  return {
    url: `{scheme}://{host}${prefix}`,
    description: 'The sandbox (a closed loop: nothing reaches a real recipient, nothing is billed) or production; API keys are bound to the environment where they were created',
    variables: {
      scheme: { default: 'https', enum: ['https', 'http'], description: 'https; http only for a service on your own machine' },
      host: { default: hosts.sandbox, enum: [...new Set([hosts.sandbox, hosts.production])], description: `${hosts.sandbox}: sandbox; ${hosts.production}: production` },
    },
  };
}

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The running service's own address as the first server, so "Try it" on /docs calls the service
 * that served the page; a Host that is not a plain host[:port] is left out rather than echoed.
 */
export function withOwnServer(doc: OpenApiDocument, origin: { protocol: string; host: string }, prefix: string): OpenApiDocument {
  if (!HOST.test(origin.host) || (origin.protocol !== 'http' && origin.protocol !== 'https')) return doc;
  return { ...doc, servers: [{ url: `${origin.protocol}://${origin.host}${prefix}`, description: 'This service, as it answered this request' }, ...doc.servers] };
}

/** The OpenAPI 3.1 document, built from the same routes and schemas that validate requests. */
export function buildOpenApi(routes: readonly Route[], opts: OpenApiOptions): OpenApiDocument {
  const { door } = opts;
  const errorBodies = [door.errorBody, door.validationErrorBody, ...(door.rateLimited ? [door.rateLimited.schema] : [])];
  const components = new SchemaComponents(NAMED_SCHEMAS, [...(opts.schemas ?? []), ...errorBodies], routes.flatMap(schemasOf));
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operation(components, door, opts.prefix, route);
    route.tags.forEach((t) => tags.add(t));
  }
  for (const hook of Object.values(opts.webhooks ?? {})) {
    for (const op of Object.values(hook as Record<string, { tags?: string[] }>)) op.tags?.forEach((t) => tags.add(t));
  }
  const undescribed = [...tags].filter((t) => !door.tags[t]);
  if (undescribed.length > 0) throw new Error(`OpenAPI tags without a description (add them to the door's tags): ${undescribed.join(', ')}`);
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item)).flatMap((op) => Object.values(op['responses'] as Record<string, Json>))
    .map((r) => r['$ref']).filter((ref): ref is string => typeof ref === 'string'));
  const responses = Object.fromEntries(Object.entries(standardResponses(components, door)).filter(([name]) => used.has(`#/components/responses/${name}`)));
  return {
    openapi: '3.1.0',
    info: door.info,
    servers: door.hosts ? [environmentServer(door.hosts, opts.prefix)] : [],
    tags: [...tags].sort().map((name) => ({ name, description: door.tags[name] ?? '' })),
    paths,
    ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
    components: {
      schemas: components.schemas,
      responses,
      headers: Object.fromEntries(Object.entries(everyResponseHeaders(door)).map(([name, h]) => [headerComponent(name), h])),
      securitySchemes: door.securitySchemes,
    },
  };
}
