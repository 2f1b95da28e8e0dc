import type { TObject, TSchema } from '@sinclair/typebox';
import { ErrorBody, ValidationErrorBody } from '../../../schemas/common/errors.ts';
import { MAX_JSON_DEPTH } from './body.ts';
import { MAX_ECHOED_DEPTH, MAX_ECHOED_ENTRIES, MAX_ECHOED_STRING, MAX_ISSUES } from './bounded-issues.ts';
import { SchemaComponents } from './components.ts';
import type { RawBodyDoc, Route, RouteResponseDoc } from './route.ts';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Json>>;
  webhooks?: Record<string, unknown>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
}

/** Shared schemas referenced by name rather than repeated inline. */
const NAMED_SCHEMAS = new Map<TSchema, string>([
  [ErrorBody, 'ErrorBody'],
  [ValidationErrorBody, 'ValidationErrorBody'],
]);
const errorJson = (schema: TSchema): Json => ({ 'application/json': { schema: { $ref: `#/components/schemas/${NAMED_SCHEMAS.get(schema) ?? ''}` } } });

/** Responses every route may give whatever it declares: produced by the platform itself. */
const STANDARD_RESPONSES: Record<string, Json> = {
  BadRequest: { description: `Malformed request: bad JSON (\`malformed_json\`), arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels (\`json_too_deep\`, carries max_depth), wrong content type, or invalid If-Match`, content: errorJson(ErrorBody) },
  Unauthorized: { description: 'Missing or invalid API key or token', content: errorJson(ErrorBody) },
  PayloadTooLarge: { description: 'Request body above the size limit', content: errorJson(ErrorBody) },
  ValidationError: {
    description: `Request validation failed (path, query or body). Any string (object keys too) holding NUL, a lone surrogate, U+FFFE, U+FFFF or a control character other than tab, LF and CR is \`string_forbidden_character\`; a number too large to be finite is \`finite_number\`. At most ${MAX_ISSUES} entries (then one \`too_many_errors\`); \`input\` is shortened: strings cut at ${MAX_ECHOED_STRING} characters with '…', lists and objects at ${MAX_ECHOED_ENTRIES} entries and ${MAX_ECHOED_DEPTH} levels.`,
    content: errorJson(ValidationErrorBody),
  },
  InternalError: { description: 'Unexpected failure; quote detail.request_id when reporting it', content: errorJson(ErrorBody) },
};
const stdRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

function parameters(c: SchemaComponents, where: 'path' | 'query', schema: TObject | undefined): Json[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => {
    const s = c.use(prop);
    // a query key with a default may be left out, even though handlers always receive it
    const isRequired = where === 'path' || (required.has(name) && s['default'] === undefined);
    return {
      name,
      in: where,
      required: isRequired,
      ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}),
      schema: s,
    };
  });
}

function response(c: SchemaComponents, status: number, doc: RouteResponseDoc): Json {
  // an error status without its own schema still has the spec's error body
  const schema = doc.schema ?? (status === 422 ? ValidationErrorBody : status >= 400 ? ErrorBody : undefined);
  const mediaType = status < 400 ? (doc.mediaType ?? 'application/json') : 'application/json';
  return { description: doc.description, ...(schema ? { content: { [mediaType]: { schema: c.use(schema) } } } : {}) };
}

function operation(c: SchemaComponents, route: Route): Json {
  const responses: Record<string, Json> = {};
  for (const [status, doc] of Object.entries(route.responses)) responses[status] = response(c, Number(status), doc);
  const add = (status: number, name: string, when: boolean) => {
    if (when && !(String(status) in responses)) responses[String(status)] = stdRef(name);
  };
  add(400, 'BadRequest', route.body !== undefined || route.method !== 'GET');
  add(401, 'Unauthorized', route.auth === 'api');
  add(413, 'PayloadTooLarge', route.body !== undefined || route.rawBodyDoc !== undefined);
  add(422, 'ValidationError', route.params !== undefined || route.query !== undefined || route.body !== undefined);
  add(500, 'InternalError', true);

  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    parameters: [
      ...parameters(c, 'path', route.params), ...parameters(c, 'query', route.query),
      ...(route.headerDocs ?? []).map((h) => ({ name: h.name, in: 'header', required: false, description: h.description, schema: c.use(h.schema) })),
    ],
    ...(route.body ? { requestBody: { required: route.bodyOptional !== true, content: { 'application/json': { schema: c.use(route.body) } } } } : {}),
    ...(route.rawBodyDoc ? { requestBody: rawRequestBody(c, route.rawBodyDoc) } : {}),
    responses,
    security: route.auth === 'api' ? [{ ApiKey: [] }, { Bearer: [] }] : [],
  };
}

function rawRequestBody(c: SchemaComponents, doc: RawBodyDoc): Json {
  const content: Record<string, Json> = {};
  for (const [mediaType, schema] of Object.entries(doc.content)) content[mediaType] = { schema: c.use(schema) };
  return { required: true, description: doc.description, content };
}

function schemasOf(route: Route): TSchema[] {
  const responses = Object.values(route.responses).flatMap((r) => (r.schema ? [r.schema] : []));
  const raw = Object.values(route.rawBodyDoc?.content ?? {});
  return [route.params, route.query, route.body, ...responses, ...raw].filter((s): s is TSchema => s !== undefined);
}

export interface OpenApiOptions {
  prefix: string;
  info: OpenApiInfo;
  /** schemas with an `$id` that routes reach through `Type.Ref`; listed as components */
  schemas?: readonly TSchema[];
  /** the `webhooks` section (OpenAPI 3.1): what the service POSTs to subscribers */
  webhooks?: Record<string, unknown>;
}

/** The OpenAPI 3.1 document, built from the same routes and schemas that validate requests. */
export function buildOpenApi(routes: readonly Route[], opts: OpenApiOptions): OpenApiDocument {
  const components = new SchemaComponents(NAMED_SCHEMAS, opts.schemas ?? [], routes.flatMap(schemasOf));
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operation(components, route);
    route.tags.forEach((t) => tags.add(t));
  }
  return {
    openapi: '3.1.0',
    info: opts.info,
    servers: [{ url: opts.prefix }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
    components: {
      schemas: components.schemas,
      responses: STANDARD_RESPONSES,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key (server to server)' },
        Bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'JWT access token, OAuth 2.0 client-credentials token, or an API key starting with svc_',
        },
      },
    },
  };
}
