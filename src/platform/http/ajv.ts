import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isIsoDate } from '../../../schemas/common/date.ts';

// ajv-formats is CommonJS with `exports.default`; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

const common: Options = {
  allErrors: true, // one 422 entry per problem, not just the first
  verbose: true, // errors carry the offending data, which becomes `input`
  useDefaults: true, // handlers see defaults (page=1) filled in
  strictSchema: true, // unknown keywords are schema typos: fail at startup
  strictTypes: false, // TypeBox unions omit a top-level `type`, which is fine
  strictTuples: false,
  strictRequired: false,
};

/** RFC 3339 date-time with its time zone, as ajv-formats reads it (T, t or a space between). */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

/**
 * A date-time whose date is one we can store (see isIsoDate) and that JavaScript can read: no
 * leap second (23:59:60), which RFC 3339 allows but Date cannot parse.
 */
function isStorableDateTime(s: string): boolean {
  const date = DATE_TIME.exec(s)?.[1];
  return date !== undefined && isIsoDate(date) && Number.isFinite(Date.parse(s));
}

function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  // stricter than RFC 3339's: no year 0000 (Postgres has none), no date JavaScript cannot read
  ajv.addFormat('date', { type: 'string', validate: isIsoDate });
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  // OpenAPI authors write `example`; it is an annotation only
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}

/** Validators for JSON bodies: no coercion, the JSON types are the contract. */
export const createBodyAjv = (): Ajv => withFormats(new Ajv({ ...common, coerceTypes: false }));

/** Validators for path and query strings: '2' becomes 2, a lone value becomes a one-item array. */
export const createStringAjv = (): Ajv => withFormats(new Ajv({ ...common, coerceTypes: 'array' }));

/** Validators for handler results: neither coercion nor defaults, a response is checked as sent. */
export const createResponseAjv = (): Ajv => withFormats(new Ajv({ ...common, useDefaults: false, coerceTypes: false }));
