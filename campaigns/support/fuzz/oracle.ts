import { Ajv } from 'ajv';
import type { Route } from '../../../src/platform/http/index.ts';
import type { FuzzCase } from './cases.ts';

/** What came back for one case. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** the Location header of a 2xx: where a create put its resource */
  location?: string;
  /** the request never got an answer (connection reset, timeout) */
  error?: string;
}

/** Why an answer is wrong, grouped in the report by `problem`. */
export interface Verdict {
  problem: string;
  detail: string;
}

/** An error body may echo input, but not a megabyte of it: issue 14 asks for a bounded, truncated echo. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const LOC_ROOTS = new Set(['body', 'query', 'path', 'header']);

function isValidationIssue(v: unknown): boolean {
  return isObject(v) && Array.isArray(v.loc) && LOC_ROOTS.has(String(v.loc[0])) && typeof v.msg === 'string' && typeof v.type === 'string' && 'input' in v;
}

/** The documented 4xx bodies: `{detail: {error}}`, the 422 list, the invoice-validation 422, the 429 of a limit. */
function documentedErrorShape(status: number, json: unknown): boolean {
  if (!isObject(json)) return false;
  if (status === 429 && json.error === 'rate_limit_exceeded' && typeof json.retry_after === 'number') return true;
  const { detail } = json;
  if (isObject(detail) && typeof detail.error === 'string') return true;
  if (status !== 422) return false;
  if (Array.isArray(detail)) return detail.length > 0 && detail.every(isValidationIssue);
  return isObject(detail) && typeof detail.message === 'string' && Array.isArray(detail.errors);
}

const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
const declared = new WeakMap<object, (body: unknown) => boolean>();

/** A route may document its own 4xx body (the OAuth token endpoint answers RFC 6749's). */
function matchesDeclared(route: Route, status: number, json: unknown): boolean {
  const schema = route.responses[status]?.schema;
  if (!schema) return false;
  let check = declared.get(schema);
  if (!check) {
    const validate = ajv.compile(schema);
    check = (body) => validate(body) === true;
    declared.set(schema, check);
  }
  return check(json);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const short = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

/** The SAPI-SK envelope (sapi-sk.md, Errors): what every /sapi refusal must be. */
function sapiEnvelope(_status: number, json: unknown): boolean {
  if (!isObject(json) || !isObject(json.error)) return false;
  const { category, code, message, retryable, correlation_id, details } = json.error;
  return ['AUTH', 'VALIDATION', 'PROCESSING', 'QUOTA', 'TEMPORARY', 'PERMANENT'].includes(String(category)) && typeof code === 'string' && code.startsWith('SAPI-')
    && typeof message === 'string' && typeof retryable === 'boolean' && typeof correlation_id === 'string'
    && Array.isArray(details) && details.every((d) => isObject(d) && typeof d.field === 'string' && typeof d.issue === 'string');
}

/**
 * Judges one answer: any 5xx, no answer, a status outside 2xx/4xx, a 4xx outside the documented
 * error shapes (or over the echo bound), bad text accepted with a 2xx. 2xx bodies are checked by
 * the service itself (validateResponses: a body outside the route's schema is a 500).
 */
export function judge(route: Route, c: FuzzCase, a: Answer, door: 'native' | 'sapi' = 'native'): Verdict | undefined {
  if (a.error !== undefined) return { problem: 'no answer', detail: a.error };
  if (a.status >= 500) return { problem: `${a.status}`, detail: short(a.text) };
  if (a.status >= 200 && a.status < 300) {
    if (c.badText) return { problem: 'bad text accepted', detail: `${a.status}: NUL, a lone surrogate or a C0 control was not refused` };
    return undefined;
  }
  if (a.status < 400) return { problem: `unexpected ${a.status}`, detail: short(a.text) };
  const json = a.contentType.includes('json') ? parseJson(a.text) : undefined;
  if (json === undefined) return { problem: 'error body not JSON', detail: `${a.contentType || 'no content-type'}: ${short(a.text)}` };
  const documented = door === 'sapi' ? sapiEnvelope(a.status, json) : documentedErrorShape(a.status, json) || matchesDeclared(route, a.status, json);
  if (!documented) return { problem: 'error shape', detail: short(a.text) };
  const bytes = Buffer.byteLength(a.text);
  if (bytes > MAX_ERROR_BODY_BYTES) return { problem: 'error body too large', detail: `${bytes} bytes: ${short(a.text)}` };
  return undefined;
}
