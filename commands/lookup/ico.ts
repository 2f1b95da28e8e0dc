import { InvalidFields } from '../shared/invalid-fields.ts';
import { icoProblem } from '../shared/slovak-identifiers.ts';

/**
 * The IČO a lookup asks for: exactly 8 digits whose mod-11 check digit matches, else 422 in the
 * request-error shape at the path parameter (the registries are never asked about a number that
 * cannot exist).
 */
export function lookupIco(raw: string): string {
  const problem = /^\d{8}$/.test(raw) ? icoProblem(raw) : 'IČO must be exactly 8 digits';
  if (problem) throw new InvalidFields([{ loc: ['path', 'ico'], msg: problem, type: 'value_error.ico', input: raw }]);
  return raw;
}

/** Whether a search text is itself a valid IČO (spaces allowed, as people write `35 757 442`): it is then looked up by identifier. */
export function icoInQuery(query: string): string | null {
  const digits = query.replace(/\s+/g, '');
  return /^\d{8}$/.test(digits) && icoProblem(digits) === null ? digits : null;
}
