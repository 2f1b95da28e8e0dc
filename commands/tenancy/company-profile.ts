/**
 * What a company's profile may hold (issue 40): its seat (the seller's address on its invoices),
 * the commercial register entry the Obchodný zákonník (§3a) asks every invoice of a registered
 * company to print, a contact, and the bank account its invoices and PAY by square codes name.
 * Every value is trimmed; a part left empty is '' (the country is SK unless given).
 */
import type { CompanyFields, CompanyProfile } from '../../events/tenancy.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { skIbanProblem } from '../shared/slovak-identifiers.ts';

/** A Slovak post code (PSČ): `NNN NN` or `NNNNN`, as the party block has it. */
const SK_POSTAL_CODE = /^\d{3} ?\d{2}$/;
/** ISO 9362: bank (4 letters), country (2 letters), location (2), branch (3, optional). */
const BIC = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}([A-Z0-9]{3})?$/;
/** One @ with something on both sides and a dot in the domain; the mailbox itself is the sender's to know. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** International format, as the spec asks of a customer's phone: + country code, then digits (spaces allowed). */
const PHONE = /^\+[1-9][0-9 ]{6,19}$/;

/** The profile of a company registered before issue 40: '' for everything it was not registered with. */
export function profileOf(fields: CompanyFields): CompanyProfile {
  return {
    street: fields.street ?? '',
    additional_street: fields.additional_street ?? '',
    city: fields.city ?? '',
    postal_code: fields.postal_code ?? '',
    country_code: fields.country_code ?? 'SK',
    register_entry: fields.register_entry ?? '',
    contact_name: fields.contact_name ?? '',
    contact_email: fields.contact_email ?? '',
    contact_phone: fields.contact_phone ?? '',
    iban: fields.iban,
    bic: fields.bic ?? '',
  };
}

/** The same values as stored: trimmed, the country, IBAN and BIC upper-case, spaces out of IBAN and BIC. */
export function normaliseProfile<P extends Partial<CompanyProfile>>(input: P): P {
  const out: Partial<CompanyProfile> = {};
  for (const [key, value] of Object.entries(input) as [keyof CompanyProfile, string | undefined][]) {
    if (value === undefined) continue;
    const trimmed = value.trim();
    out[key] = key === 'iban' || key === 'bic' ? trimmed.replace(/\s+/g, '').toUpperCase() : key === 'country_code' ? trimmed.toUpperCase() : trimmed;
  }
  return out as P;
}

/**
 * Refuses what a profile must not hold, every field at once (422 with loc): a Slovak seat's post
 * code other than NNN NN, an e-mail or phone that cannot be one, an IBAN that is not a valid Slovak
 * one (a company's own account, as at registration), and a BIC that is not ISO 9362 or is of
 * another country than the IBAN (a bank's BIC names the country of the accounts it keeps).
 * `input` is what the caller sent, for the 422's `input`.
 */
export function checkProfile(profile: CompanyProfile, input: Partial<CompanyProfile> = profile): void {
  checkFields((problem) => profileProblems(profile, input, problem));
}

/** checkProfile's rules, reporting each problem through `problem` (registration adds its identifiers' to the same list). */
export function profileProblems(profile: CompanyProfile, input: Partial<CompanyProfile>, problem: (field: string, msg: string, input: unknown) => void): void {
  if (!/^[A-Z]{2}$/.test(profile.country_code)) problem('country_code', 'an ISO 3166-1 alpha-2 country code, such as SK', input.country_code);
  if (profile.postal_code && profile.country_code === 'SK' && !SK_POSTAL_CODE.test(profile.postal_code)) {
    problem('postal_code', 'a Slovak post code is NNN NN or NNNNN', input.postal_code);
  }
  if (profile.contact_email && !EMAIL.test(profile.contact_email)) problem('contact_email', 'not an e-mail address', input.contact_email);
  if (profile.contact_phone && !PHONE.test(profile.contact_phone)) problem('contact_phone', 'a phone number in international format, such as +421 2 1234 5678', input.contact_phone);
  const iban = skIbanProblem(profile.iban);
  if (iban) problem('iban', iban, input.iban);
  const bic = BIC.exec(profile.bic);
  if (profile.bic && !bic) problem('bic', 'a BIC (ISO 9362) is 8 or 11 letters and digits, such as TATRSKBX', input.bic);
  else if (bic && !iban && bic[1] !== profile.iban.slice(0, 2)) problem('bic', `the BIC is of a bank in ${bic[1]}, the IBAN of an account in ${profile.iban.slice(0, 2)}`, input.bic);
}

/** What an update changes: the fields whose value differs from the profile's now. */
export function changedFields(now: CompanyProfile, next: CompanyProfile): (keyof CompanyProfile)[] {
  return (Object.keys(next) as (keyof CompanyProfile)[]).filter((key) => now[key] !== next[key]);
}
