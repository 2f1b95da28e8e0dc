import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

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

function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
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
