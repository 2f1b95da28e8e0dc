import type { ValidateFunction } from 'ajv';
import { createResponseAjv } from '../../../src/platform/http/ajv.ts';
import type { Route } from '../../../src/platform/http/index.ts';
import type { Verdict } from './oracle.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `#/components/schemas/X` → `<root>#/$defs/X`, everywhere in a copy of `value`. */
function rebase(value: unknown, root: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rebase(v, root));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) out[k] = `${root}#/$defs/${v.slice('#/components/schemas/'.length)}`;
    else if (k === '$id') continue; // the root below is the only base: a component's own $id would clash when it is also inlined
    else out[k] = rebase(v, root);
  }
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The responses a front door's OpenAPI document promises, checked against what came back: the
 * status must be documented for the operation, and a JSON body must match that status's schema
 * (components resolved). The document is the one the service serves, fetched over HTTP, so the
 * check is of the contract a client reads, not of the route objects.
 */
export class DocumentedResponses {
  private readonly ajv = createResponseAjv();
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly root: string;

  private constructor(private readonly doc: Json, name: string) {
    this.root = `campaign-openapi-${name}`;
    const components = isObject(doc.components) ? doc.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    this.ajv.addSchema({ $id: this.root, $defs: rebase(schemas, this.root) as Json });
  }

  static async load(url: string, name: string): Promise<DocumentedResponses> {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return new DocumentedResponses((await res.json()) as Json, name);
  }

  /** The operation object of a route, or undefined when the document does not list it. */
  operation(route: Pick<Route, 'method' | 'path'>): Json | undefined {
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    const item = paths[route.path];
    const op = isObject(item) ? item[route.method.toLowerCase()] : undefined;
    return isObject(op) ? op : undefined;
  }

  private response(op: Json, status: number): Json | undefined {
    const responses = isObject(op.responses) ? op.responses : {};
    let r = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (isObject(r) && typeof r.$ref === 'string' && r.$ref.startsWith('#/components/responses/')) {
      const all = isObject(this.doc.components) && isObject(this.doc.components.responses) ? this.doc.components.responses : {};
      r = all[r.$ref.slice('#/components/responses/'.length)];
    }
    return isObject(r) ? r : undefined;
  }

  /** Why an answer breaks the document (an undocumented status, a body outside its schema), or undefined. */
  check(route: Pick<Route, 'method' | 'path' | 'operationId'>, status: number, contentType: string, text: string): Verdict | undefined {
    const op = this.operation(route);
    if (!op) return { problem: 'not in the OpenAPI document', detail: `${route.method} ${route.path}` };
    const response = this.response(op, status);
    if (!response) return { problem: 'undocumented status', detail: `${status} is not among the documented responses of ${route.operationId}: ${text.slice(0, 160)}` };
    const content = isObject(response.content) ? response.content : undefined;
    if (!content) return undefined; // documented without a body (204, 304)
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const documented = Object.keys(content);
    const entry = content[mediaType] ?? (mediaType.endsWith('+json') ? content['application/json'] : undefined);
    if (!isObject(entry)) return { problem: 'undocumented media type', detail: `${status} ${contentType || 'without content-type'}; documented: ${documented.join(', ')}` };
    if (!mediaType.includes('json') || !isObject(entry.schema)) return undefined;
    const parsed = parseJson(text);
    if (!parsed.ok) return { problem: 'body not JSON', detail: `${status} ${contentType}: ${text.slice(0, 160)}` };
    const key = `${route.method} ${route.path} ${status} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(entry.schema, this.root) as Json);
      this.compiled.set(key, validate);
    }
    if (validate(parsed.value)) return undefined;
    const first = validate.errors?.[0];
    return { problem: 'response schema', detail: `${status}: ${first?.instancePath || '/'} ${first?.message ?? ''}: ${text.slice(0, 200)}` };
  }
}
