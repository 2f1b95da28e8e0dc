import type { CustomerFields } from '../../events/customers.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import {
  dicProblem,
  icoProblem,
  normaliseVatId,
  peppolIdProblem,
  vatIdProblem,
} from '../shared/slovak-identifiers.ts';

/** A customer create body as the API receives it: everything but name and vat_id optional. */
export interface CustomerInput {
  name: string;
  vat_id: string;
  ico?: string | null;
  dic?: string | null;
  email?: string | null;
  phone?: string | null;
  street?: string;
  city?: string;
  postal_code?: string;
  country_code?: string;
  peppol_id?: string | null;
  note?: string | null;
}

const blankToNull = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};
const compact = (value: string) => value.replace(/\s+/g, '');
const compactOrNull = (value: string | null | undefined) => {
  const present = blankToNull(value);
  return present ? compact(present) : null;
};

/**
 * Checks and normalises customer fields by the Slovak rules: each identifier by its own rule
 * (IČO check digit, DIČ 10 digits, IČ DPH divisible by 11), an SK VAT ID agreeing with the DIČ,
 * Slovak postal codes as `NNN NN`, phones in international format. All problems come back at once.
 */
export function customerFields(input: CustomerInput): CustomerFields {
  const country = (input.country_code ?? 'SK').toUpperCase();
  const fields: CustomerFields = {
    name: input.name.trim(),
    vat_id: normaliseVatId(input.vat_id),
    ico: compactOrNull(input.ico),
    dic: compactOrNull(input.dic),
    email: blankToNull(input.email),
    phone: blankToNull(input.phone),
    street: input.street?.trim() ?? '',
    city: input.city?.trim() ?? '',
    postal_code: input.postal_code?.trim() ?? '',
    country_code: country,
    peppol_id: blankToNull(input.peppol_id),
    note: blankToNull(input.note),
  };
  checkFields((problem) => {
    if (!fields.name) problem('name', 'name must not be blank', input.name);
    const vatProblem = fields.vat_id ? vatIdProblem(fields.vat_id) : null;
    if (vatProblem) problem('vat_id', vatProblem, input.vat_id);
    const icoIssue = fields.ico ? icoProblem(fields.ico) : null;
    if (icoIssue) problem('ico', icoIssue, input.ico);
    const dicIssue = fields.dic ? dicProblem(fields.dic) : null;
    if (dicIssue) problem('dic', dicIssue, input.dic);
    if (!vatProblem && !dicIssue && fields.dic && fields.vat_id.startsWith('SK') && fields.vat_id.slice(2) !== fields.dic) {
      problem('dic', 'an SK VAT ID is SK + the DIČ: vat_id and dic disagree', input.dic);
    }
    if (country === 'SK' && fields.postal_code) {
      const digits = compact(fields.postal_code);
      if (/^\d{5}$/.test(digits)) fields.postal_code = `${digits.slice(0, 3)} ${digits.slice(3)}`;
      else problem('postal_code', 'a Slovak postal code is NNN NN or NNNNN', input.postal_code);
    }
    if (fields.phone) {
      const phone = compact(fields.phone);
      if (/^\+[1-9]\d{6,14}$/.test(phone)) fields.phone = phone;
      else problem('phone', 'phone must be in international format, e.g. +421 2 1234 5678', input.phone);
    }
    const peppolIssue = fields.peppol_id ? peppolIdProblem(fields.peppol_id) : null;
    if (peppolIssue) problem('peppol_id', peppolIssue, input.peppol_id);
  });
  return fields;
}
