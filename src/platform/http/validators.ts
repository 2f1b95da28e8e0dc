import { REPRESENTATION_HEADERS } from './headers.ts';
import type { Ajv } from 'ajv';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import { toIssues, type LocRoot } from './issues.ts';
import type { Route } from './route.ts';

/** Validates (and, for strings, coerces and fills defaults in) `data` in place; [] means valid. */
export type Check = (data: unknown) => ValidationIssue[];

const pass: Check = () => [];

/**
 * A named schema (`$id`) may be reached twice: as one route's whole body and nested in another's
 * (a record and the list of them). ajv knows each id once, so one it already met is taken from it.
 */
function compiledOnce(ajv: Ajv, schema: TSchema) {
  const id = typeof schema.$id === 'string' ? schema.$id : undefined;
  return (id === undefined ? undefined : ajv.getSchema(id)) ?? ajv.compile(schema);
}

function compile(ajv: Ajv, root: LocRoot, schema: TSchema | undefined): Check {
  if (!schema) return pass;
  const validate = compiledOnce(ajv, schema);
  return (data) => (validate(data) ? [] : toIssues(root, validate.errors ?? [], data));
}

/**
 * ajv coerces '1e309' to Infinity and then lets it through even a `maximum` (it does not check a
 * coerced value again), so path and query numbers are checked to be finite after coercion.
 */
function compileStrings(ajv: Ajv, root: LocRoot, schema: TObject | undefined): Check {
  const check = compile(ajv, root, schema);
  if (!schema) return check;
  return (data) => {
    const sent = data !== null && typeof data === 'object' ? { ...(data as Record<string, unknown>) } : {};
    const issues = check(data);
    if (data === null || typeof data !== 'object') return issues;
    for (const [key, value] of Object.entries(data)) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      values.forEach((v, i) => {
        if (typeof v !== 'number' || Number.isFinite(v)) return;
        const raw = sent[key];
        issues.push({
          loc: [root, key, ...(Array.isArray(value) ? [i] : [])],
          msg: 'Input should be a finite number',
          type: 'finite_number',
          input: Array.isArray(raw) ? (raw[i] ?? null) : (raw ?? null),
        });
      });
    }
    return issues;
  };
}

export interface RouteValidators {
  params: Check;
  query: Check;
  body: Check;
  /** query keys the route declares; others are dropped before validation (unknown ones are ignored) */
  queryKeys: readonly string[];
  /** set when responses are checked: throws on a result outside the declared responses */
  response?: (status: number, body: unknown, headers?: Record<string, string>) => void;
}

/** Compiles a route's schemas once, at startup, so a broken schema fails the boot, not a request. */
export function compileRoute(route: Route, ajvs: { strings: Ajv; body: Ajv; responses?: Ajv }): RouteValidators {
  const query: TObject | undefined = route.query;
  return {
    params: compileStrings(ajvs.strings, 'path', route.params),
    query: compileStrings(ajvs.strings, 'query', route.query),
    body: compile(ajvs.body, 'body', route.body),
    queryKeys: query ? Object.keys(query.properties) : [],
    ...(ajvs.responses ? { response: compileResponseCheck(route, ajvs.responses) } : {}),
  };
}

/** A handler answered outside its declared responses: the OpenAPI document would be lying. */
class ResponseContractError extends Error {
  constructor(route: Route, status: number, problems: string) {
    super(`${route.operationId} answered ${status} outside its declared responses: ${problems}`);
    this.name = 'ResponseContractError';
  }
}

/** The media type a result is sent as: its content-type header's, else what Koa makes of the body. */
function sentMediaType(body: unknown, headers: Record<string, string>): string {
  const declared = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (declared !== undefined) return (declared.split(';')[0] ?? '').trim().toLowerCase();
  if (Buffer.isBuffer(body)) return 'application/octet-stream';
  return typeof body === 'string' ? 'text/plain' : 'application/json';
}

/**
 * Checks a handler's result against the route's `responses` (opt-in: for tests and development):
 * the status, the JSON body against its schema, a success body's media type against the declared
 * one, and every response header the handler sets against the ones declared for that status.
 */
function compileResponseCheck(route: Route, ajv: Ajv): (status: number, body: unknown, headers?: Record<string, string>) => void {
  const checks = new Map<number, ((body: unknown) => string | undefined) | undefined>();
  for (const [status, doc] of Object.entries(route.responses)) {
    // no body, or one that is not JSON (a PDF, a streamed CSV): nothing for a JSON schema to check
    if (!doc.schema || (doc.mediaType !== undefined && doc.mediaType !== 'application/json')) {
      checks.set(Number(status), undefined);
      continue;
    }
    const validate = compiledOnce(ajv, doc.schema);
    checks.set(Number(status), (body) => (validate(body) ? undefined : ajv.errorsText(validate.errors)));
  }
  return (status, body, headers = {}) => {
    if (!checks.has(status)) throw new ResponseContractError(route, status, 'status not declared');
    const doc = route.responses[status];
    const declared = new Set((doc?.headers ?? []).map((h) => h.name.toLowerCase()));
    const undeclared = Object.keys(headers).filter((h) => !declared.has(h.toLowerCase()) && !REPRESENTATION_HEADERS.has(h.toLowerCase()));
    if (undeclared.length > 0) throw new ResponseContractError(route, status, `sets the ${undeclared.join(', ')} header(s) without declaring them in responses[${status}].headers`);
    if (status < 300 && body !== undefined && body !== null) {
      const sent = sentMediaType(body, headers);
      const documented = doc?.schema ? (doc.mediaType ?? 'application/json') : undefined;
      if (sent !== documented) throw new ResponseContractError(route, status, `sends ${sent} but declares ${documented ?? 'no body'} (set schema and mediaType)`);
    }
    // raw bytes and text are not JSON documents the schema describes
    if (Buffer.isBuffer(body) || typeof body === 'string') return;
    const problem = checks.get(status)?.(body);
    if (problem !== undefined) throw new ResponseContractError(route, status, problem);
  };
}
