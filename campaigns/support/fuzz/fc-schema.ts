import fc from 'fast-check';
import type { Random } from './random.ts';
import { allIds, idsFor, type Known, type Schema } from './values.ts';

/** Longest generated string and array: long inputs have mutations of their own (1 MB strings). */
const MAX_STRING = 80;
const MAX_ITEMS = 4;
const MAX_DEPTH = 6;

const cache = new WeakMap<Schema, fc.Arbitrary<unknown>>();

function stringArbitrary(schema: Schema, known: Known, name: string | undefined): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(minLength, Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : MAX_STRING, MAX_STRING));
  switch (schema.format) {
    case 'uuid': {
      const ids = [...idsFor(known, name), ...allIds(known)];
      return ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), fc.uuid()) : fc.uuid();
    }
    case 'date':
      return fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress();
    default:
      break;
  }
  if (typeof schema.pattern === 'string') {
    try {
      const re = new RegExp(schema.pattern, 'u');
      return fc.stringMatching(re).filter((s) => [...s].length >= minLength && [...s].length <= maxLength);
    } catch {
      // a pattern fast-check cannot read: plain strings (mostly refused, which is a case too)
    }
  }
  const strings = known.strings.filter((s) => [...s].length >= minLength && [...s].length <= maxLength);
  const unicode = fc.string({ minLength, maxLength, unit: 'grapheme' });
  return strings.length > 0 ? fc.oneof(unicode, fc.constantFrom(...strings)) : unicode;
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined;
  if (integer) return fc.integer({ min: min ?? -(2 ** 31), max: max ?? 2 ** 31 });
  return fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true });
}

/**
 * A fast-check arbitrary for the values a JSON schema (as TypeBox writes it, the one ajv checks
 * requests with) describes: required properties always, optional ones sometimes, ids the
 * campaign knows for fields named like a route parameter. Values the schema cannot express
 * (patterns fast-check cannot read) fall back to plain strings.
 */
export function schemaArbitrary(schema: Schema, known: Known, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const hit = depth === 0 ? cache.get(schema) : undefined;
  if (hit) return hit;
  const arb = build(schema, known, name, depth);
  if (depth === 0) cache.set(schema, arb);
  return arb;
}

function build(schema: Schema, known: Known, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return fc.oneof(...union.map((s) => schemaArbitrary(s, known, name, depth + 1)));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema, known, name);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = depth >= MAX_DEPTH ? minLength : Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : MAX_ITEMS, minLength + MAX_ITEMS));
      return fc.array(schemaArbitrary((schema.items ?? {}) as Schema, known, name, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = ((schema.required ?? []) as string[]).filter((k) => k in properties);
      const keys = depth >= MAX_DEPTH ? required : Object.keys(properties);
      const model = Object.fromEntries(keys.map((k) => [k, schemaArbitrary(properties[k]!, known, k, depth + 1)]));
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** One value of the schema, drawn with a seed from the run's generator (so the run's seed reproduces it). */
export function sampleSchema(schema: Schema, known: Known, rnd: Random): unknown {
  return fc.sample(schemaArbitrary(schema, known), { seed: rnd.uint32() | 0, numRuns: 1 })[0];
}
