import { randomUuid } from './uuid.ts';
import type { Random } from './random.ts';

/** A JSON schema as TypeBox builds it (plain JSON schema plus symbols the fuzzer ignores). */
export type Schema = Record<string, unknown>;

/**
 * What the fuzzer knows of the running service: ids of existing resources by the name of the
 * field or path parameter that carries them, and strings that mean something to it (VAT IDs,
 * IČO, Peppol ids, e-mails). Valid-ish values come from here part of the time, so handlers get
 * past "not found" and business rules into the code behind them.
 */
export interface Known {
  ids: Map<string, string[]>;
  strings: string[];
  /**
   * A valid body by route (`METHOD path` as the router holds it), for a route whose valid input
   * no schema spells: a SAPI send's payload is a UBL whose parties must be the metadata's.
   */
  bodies?: Map<string, Record<string, unknown>>;
}

export function idsFor(known: Known, name: string | undefined): string[] {
  return (name ? known.ids.get(name) : undefined) ?? [];
}

/** An id of this name: the first one (the main company, the first customer) half of the time. */
export function pickId(rnd: Random, ids: readonly string[]): string {
  return rnd.chance(0.5) ? (ids[0] as string) : rnd.pick(ids);
}

export function allIds(known: Known): string[] {
  return [...known.ids.values()].flat();
}

/** Strings that satisfy many of the API's patterns: amounts, rates, codes, years. */
const PATTERN_POOL = [
  // the most ordinary values first: a plain body takes the first that fits
  '23', String(new Date().getUTCFullYear()), 'EUR', '1', '2', '5', '10', '19', '20', '23', '0', '100', '100.00', '99.99', '0.5', '0.01', '-1', '-2.5', '1.123456', '12.34',
  '100000000', '999999999999', '999999999999.999999', '-999999999999.999999', '000001', '42',
  'C62', 'H87', 'KGM', 'HUR', 'EUR', 'CZK', 'USD', 'SK', 'CZ', 'de', 'at', 'SK2020000004',
  'INV-1', '2024/001', 'a.b_c-d', '123456', '000000', '2024', '1999', '0000', '9999',
];

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'áäčďéíĺľňóôŕšťúýžÁČĽŠŽ', ' -./,&\'"', '😀€漢字'];

export function randomText(rnd: Random, min: number, max: number): string {
  const length = rnd.int(min, Math.max(min, Math.min(max, min + 40)));
  let out = '';
  const alphabet = [...rnd.pick(ALPHABETS) + rnd.pick(ALPHABETS)];
  while ([...out].length < length) out += rnd.pick(alphabet);
  // the length in code points is what maxLength counts (ajv counts code points)
  return [...out].slice(0, length).join('');
}

function isoDate(rnd: Random): string {
  const year = rnd.chance(0.8) ? new Date().getUTCFullYear() - rnd.int(0, 1) : rnd.int(1990, 2035);
  return `${year}-${String(rnd.int(1, 12)).padStart(2, '0')}-${String(rnd.int(1, 28)).padStart(2, '0')}`;
}

/** Words in a pattern (`^(?:draft|sent)$` gives draft, sent), alone, negated and joined: sort keys and status lists. */
function patternWords(pattern: string): string[] {
  const words = pattern.split(/[^A-Za-z0-9_]+/).filter((w) => w.length > 2 && !/^\d/.test(w));
  return [...words, ...words.map((w) => `-${w}`), ...words.slice(0, 6).flatMap((a, i) => words.slice(i + 1, i + 3).map((b) => `${a},${b}`))];
}

function stringFor(schema: Schema, rnd: Random, known: Known, name: string | undefined, plain: boolean): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 60;
  const fits = (s: string) => [...s].length >= min && [...s].length <= max;
  switch (schema.format) {
    case 'uuid': {
      const ids = idsFor(known, name);
      if (ids.length > 0 && plain) return ids[0] as string;
      if (ids.length > 0 && rnd.chance(0.8)) return pickId(rnd, ids);
      const any = allIds(known);
      return any.length > 0 && rnd.chance(0.5) ? rnd.pick(any) : randomUuid(rnd);
    }
    case 'date':
      return plain ? new Date().toISOString().slice(0, 10) : isoDate(rnd);
    case 'date-time':
      return `${isoDate(rnd)}T${String(rnd.int(0, 23)).padStart(2, '0')}:${String(rnd.int(0, 59)).padStart(2, '0')}:00${rnd.pick(['Z', '+01:00', '.123Z'])}`;
    case 'email': {
      const emails = known.strings.filter((s) => s.includes('@'));
      return emails.length > 0 && rnd.chance(0.3) ? rnd.pick(emails) : `${randomText(rnd, 1, 8).replace(/[^a-z]/gi, 'x')}@example.sk`;
    }
    default:
      break;
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    const candidates = [...PATTERN_POOL, ...known.strings, ...patternWords(schema.pattern)].filter((s) => re.test(s) && fits(s));
    if (candidates.length > 0) return plain ? (candidates[0] as string) : rnd.pick(candidates);
  }
  const fitting = known.strings.filter(fits);
  if (plain) return fitting.length > 0 && rnd.chance(0.5) ? rnd.pick(fitting) : randomText(rnd, Math.max(min, 3), Math.min(max, 20));
  if (fitting.length > 0 && rnd.chance(0.35)) return rnd.pick(fitting);
  if (min === 0 && rnd.chance(0.1)) return '';
  return randomText(rnd, Math.max(min, 1), max);
}

function numberFor(schema: Schema, rnd: Random, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : min + 100;
  const n = rnd.chance(0.3) ? rnd.pick([min, max]) : min + rnd.float() * (max - min);
  return integer ? Math.round(n) : n;
}

function isDate(schema: Schema): boolean {
  const union = (schema.anyOf ?? []) as Schema[];
  return schema.format === 'date' || union.some((s) => s.format === 'date');
}

/**
 * A value the schema accepts, or nearly: strings that fit their pattern when a candidate is at
 * hand, some optional fields, ids of existing resources most of the time. A `plain` value keeps
 * to required fields (and ids it knows) and the most ordinary strings, so business rules pass
 * often enough for handlers to run to the end; a wild one tries everything the schema allows.
 */
export function validish(schema: Schema, rnd: Random, known: Known, name?: string, depth = 0, plain = false): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rnd.pick(schema.enum as unknown[]);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const nonNull = union.filter((s) => s.type !== 'null');
    const branch = nonNull.length > 0 && (plain || rnd.chance(0.85)) ? rnd.pick(nonNull) : rnd.pick(union);
    return validish(branch, rnd, known, name, depth, plain);
  }
  switch (schema.type) {
    case 'string':
      return stringFor(schema, rnd, known, name, plain);
    case 'integer':
      return numberFor(schema, rnd, true);
    case 'number':
      return numberFor(schema, rnd, false);
    case 'boolean':
      return rnd.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 3;
      const length = depth > 6 ? min : rnd.int(min, Math.min(max, min + (plain ? 1 : 3)));
      return Array.from({ length }, () => validish(items, rnd, known, name, depth + 1, plain));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(properties)) {
        // a plain value also names what it knows ids for, and dates (a due date is often a rule)
        const wanted = required.has(key) || (plain ? idsFor(known, key).length > 0 || isDate(sub) : depth < 6 && rnd.chance(0.35));
        if (wanted) out[key] = validish(sub, rnd, known, key, depth + 1, plain);
      }
      return out;
    }
    default:
      // an unconstrained value (Type.Unknown)
      return rnd.pick<unknown>(['x', 1, true, null, {}, []]);
  }
}
