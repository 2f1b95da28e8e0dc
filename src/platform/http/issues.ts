import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';

export type LocRoot = 'body' | 'query' | 'path';

const COMPOSITE = new Set(['anyOf', 'oneOf']);

/**
 * Turns ajv's errors into pydantic-like entries `{loc, msg, type, input, ctx?}`, one per problem.
 * Unions are collapsed first so a client sees the problem of the branch it most likely meant.
 */
export function toIssues(root: LocRoot, errors: readonly ErrorObject[], data: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const e of collapseUnions(errors)) {
    const issue = toIssue(root, e, data);
    if (issue) out.push(issue);
  }
  return out;
}

/** A union collapsed to "must be one of these literals". */
interface LiteralChoice {
  literal: true;
  instancePath: string;
  data: unknown;
  allowed: unknown[];
}
type Err = ErrorObject | LiteralChoice;

function collapseUnions(errors: readonly ErrorObject[]): Err[] {
  let rest: Err[] = [...errors];
  for (;;) {
    // outermost union first: its choice decides which nested errors survive
    const unions = rest.filter((e): e is ErrorObject => !('literal' in e) && COMPOSITE.has(e.keyword));
    if (unions.length === 0) return rest;
    const u = unions.reduce((a, b) => (b.schemaPath.length < a.schemaPath.length ? b : a));
    const prefix = `${u.schemaPath}/`;
    const inside = (e: Err): e is ErrorObject => !('literal' in e) && e.schemaPath.startsWith(prefix);
    const chosen = chooseBranch(u, prefix, rest.filter(inside));
    // the chosen errors take the union's place, keeping the order ajv reported things in
    rest = rest.flatMap((e) => (e === u ? chosen : inside(e) ? [] : [e]));
  }
}

function chooseBranch(u: ErrorObject, prefix: string, errors: ErrorObject[]): Err[] {
  const branches = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const idx = e.schemaPath.slice(prefix.length).split('/')[0] ?? '';
    branches.set(idx, [...(branches.get(idx) ?? []), e]);
  }
  const all = [...branches.values()];
  if (all.length === 0) {
    // oneOf matched several branches: nothing to point at but the value itself
    return [{ ...u, keyword: 'not' }];
  }
  const atUnion = (e: ErrorObject) => e.instancePath === u.instancePath;
  const isNullBranch = (b: ErrorObject[]) => b.every((e) => atUnion(e) && e.keyword === 'type' && e.params['type'] === 'null');
  const candidates = all.filter((b) => !isNullBranch(b));
  const literals = candidates.map((b) => b.find((e) => atUnion(e) && e.keyword === 'const'));
  if (candidates.length > 0 && literals.every((e) => e !== undefined)) {
    const allowed = literals.map((e) => (e as ErrorObject).params['allowedValue'] as unknown);
    return [{ literal: true, instancePath: u.instancePath, data: u.data, allowed }];
  }
  // a branch that failed deeper than the type check is the one the client was aiming at
  const shallow = (b: ErrorObject[]) => b.every((e) => atUnion(e) && (e.keyword === 'type' || e.keyword === 'const'));
  const deep = candidates.filter((b) => !shallow(b));
  if (deep.length > 0) return deep.reduce((a, b) => (b.length < a.length ? b : a));
  return candidates[0] ?? all[0] ?? [];
}

/** JSON pointer → loc segments; array indices become numbers, as pydantic reports them. */
function pathOf(pointer: string, data: unknown): { loc: (string | number)[]; value: unknown } {
  const loc: (string | number)[] = [];
  let value: unknown = data;
  if (pointer === '') return { loc, value };
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      const i = Number(key);
      loc.push(i);
      value = value[i];
    } else {
      loc.push(key);
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
  }
  return { loc, value };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const show = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));
function oneOfText(values: unknown[]): string {
  const shown = values.map(show);
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

const FORMAT_ISSUES: Record<string, { type: string; msg: string }> = {
  uuid: { type: 'uuid_parsing', msg: 'Input should be a valid UUID' },
  date: { type: 'date_parsing', msg: 'Input should be a valid date in the format YYYY-MM-DD' },
  'date-time': { type: 'datetime_parsing', msg: 'Input should be a valid datetime with a time zone' },
  time: { type: 'time_parsing', msg: 'Input should be a valid time' },
  uri: { type: 'url_parsing', msg: 'Input should be a valid URL' },
  url: { type: 'url_parsing', msg: 'Input should be a valid URL' },
  email: { type: 'value_error', msg: 'value is not a valid email address' },
};

function typeIssue(expected: string, input: unknown): { type: string; msg: string } {
  switch (expected) {
    case 'string':
      return { type: 'string_type', msg: 'Input should be a valid string' };
    case 'integer':
      if (typeof input === 'string') return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' };
      if (typeof input === 'number') return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' };
      return { type: 'int_type', msg: 'Input should be a valid integer' };
    case 'number':
      if (typeof input === 'string') return { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' };
      return { type: 'float_type', msg: 'Input should be a valid number' };
    case 'boolean':
      if (typeof input === 'string') return { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' };
      return { type: 'bool_type', msg: 'Input should be a valid boolean' };
    case 'object':
      return { type: 'dict_type', msg: 'Input should be a valid dictionary' };
    case 'array':
      return { type: 'list_type', msg: 'Input should be a valid list' };
    case 'null':
      return { type: 'none_required', msg: 'Input should be null' };
    default:
      return { type: 'value_error', msg: `Input should be of type ${expected}` };
  }
}

function toIssue(root: LocRoot, e: Err, data: unknown): ValidationIssue | undefined {
  const { loc, value } = pathOf(e.instancePath, data);
  const at = (input: unknown, rest: Omit<ValidationIssue, 'loc' | 'input'>, extraLoc: (string | number)[] = []): ValidationIssue => ({
    loc: [root, ...loc, ...extraLoc],
    msg: rest.msg,
    type: rest.type,
    input: input === undefined ? null : input,
    ...(rest.ctx ? { ctx: rest.ctx } : {}),
  });
  if ('literal' in e) {
    return at(value, { type: 'literal_error', msg: `Input should be ${oneOfText(e.allowed)}`, ctx: { expected: oneOfText(e.allowed) } });
  }
  const p = e.params as Record<string, unknown>;
  const n = (k: string) => Number(p[k]);
  switch (e.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return at(value, { type: 'missing', msg: 'Field required' }, [String(p['missingProperty'])]);
    case 'additionalProperties': {
      const extra = String(p['additionalProperty']);
      const input = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[extra] : undefined;
      return at(input, { type: 'extra_forbidden', msg: 'Extra inputs are not permitted' }, [extra]);
    }
    case 'type': {
      const expected = String(p['type']).split(',').find((t) => t !== 'null') ?? 'null';
      return at(value, typeIssue(expected, value));
    }
    case 'maxLength':
      return at(value, { type: 'string_too_long', msg: `String should have at most ${plural(n('limit'), 'character')}`, ctx: { max_length: n('limit') } });
    case 'minLength':
      return at(value, { type: 'string_too_short', msg: `String should have at least ${plural(n('limit'), 'character')}`, ctx: { min_length: n('limit') } });
    case 'pattern':
      return at(value, { type: 'string_pattern_mismatch', msg: `String should match pattern '${String(p['pattern'])}'`, ctx: { pattern: p['pattern'] } });
    case 'format': {
      const f = String(p['format']);
      return at(value, FORMAT_ISSUES[f] ?? { type: 'value_error', msg: `Value is not a valid ${f}` });
    }
    case 'maximum':
      return at(value, { type: 'less_than_equal', msg: `Input should be less than or equal to ${n('limit')}`, ctx: { le: n('limit') } });
    case 'exclusiveMaximum':
      return at(value, { type: 'less_than', msg: `Input should be less than ${n('limit')}`, ctx: { lt: n('limit') } });
    case 'minimum':
      return at(value, { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${n('limit')}`, ctx: { ge: n('limit') } });
    case 'exclusiveMinimum':
      return at(value, { type: 'greater_than', msg: `Input should be greater than ${n('limit')}`, ctx: { gt: n('limit') } });
    case 'multipleOf':
      return at(value, { type: 'multiple_of', msg: `Input should be a multiple of ${n('multipleOf')}`, ctx: { multiple_of: n('multipleOf') } });
    case 'maxItems': {
      const len = Array.isArray(value) ? value.length : 0;
      return at(value, { type: 'too_long', msg: `List should have at most ${plural(n('limit'), 'item')} after validation, not ${len}`, ctx: { max_length: n('limit'), actual_length: len } });
    }
    case 'minItems': {
      const len = Array.isArray(value) ? value.length : 0;
      return at(value, { type: 'too_short', msg: `List should have at least ${plural(n('limit'), 'item')} after validation, not ${len}`, ctx: { min_length: n('limit'), actual_length: len } });
    }
    case 'enum': {
      const allowed = Array.isArray(p['allowedValues']) ? (p['allowedValues'] as unknown[]) : [];
      return at(value, { type: 'enum', msg: `Input should be ${oneOfText(allowed)}`, ctx: { expected: oneOfText(allowed) } });
    }
    case 'const':
      return at(value, { type: 'literal_error', msg: `Input should be ${show(p['allowedValue'])}`, ctx: { expected: show(p['allowedValue']) } });
    case 'uniqueItems':
      return at(value, { type: 'value_error', msg: 'List items should be unique' });
    case 'if':
      return undefined; // the failing `then`/`else` branch reports the real problem
    default:
      return at(value, { type: 'value_error', msg: e.message ?? 'Value is not valid' });
  }
}
