/**
 * The three Slovak identifiers are different things with different rules; mixing them up is the
 * commonest validation failure, so each has its own check and its own message.
 *  - IČO: 8-digit business ID with a mod-11 check digit.
 *  - DIČ: 10-digit tax ID.
 *  - IČ DPH: "SK" + 10 digits (the DIČ of a VAT payer), the number divisible by 11.
 */

const digitsOnly = (value: string) => value.replace(/\s+/g, '');

/** IČO check digit: weights 8..2 over the first 7 digits; remainder r gives (11 - r) mod 10, r=0 gives 1. */
export function icoCheckDigit(firstSeven: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(firstSeven[i]) * (8 - i);
  const remainder = sum % 11;
  if (remainder === 0) return 1;
  if (remainder === 1) return 0;
  return 11 - remainder;
}

/** Why an IČO is wrong, or null when it is a valid IČO. */
export function icoProblem(value: string): string | null {
  const ico = digitsOnly(value);
  if (!/^\d{8}$/.test(ico)) return 'IČO must be exactly 8 digits';
  if (icoCheckDigit(ico.slice(0, 7)) !== Number(ico[7])) return 'IČO check digit does not match';
  return null;
}

/** Why a DIČ is wrong, or null. A DIČ is 10 digits and never starts with 0. */
export function dicProblem(value: string): string | null {
  const dic = digitsOnly(value);
  if (/^\d{8}$/.test(dic)) return 'DIČ must be 10 digits (8 digits looks like an IČO)';
  if (/^SK\d{10}$/i.test(dic)) return 'DIČ must be 10 digits without the SK prefix (that form is the IČ DPH)';
  if (!/^[1-9]\d{9}$/.test(dic)) return 'DIČ must be 10 digits';
  return null;
}

/** Why an IČ DPH is wrong, or null: SK + 10 digits, the number divisible by 11. */
export function icDphProblem(value: string): string | null {
  const vat = digitsOnly(value).toUpperCase();
  if (/^\d{10}$/.test(vat)) return 'IČ DPH must start with SK (10 digits alone is a DIČ)';
  if (!/^SK[1-9]\d{9}$/.test(vat)) return 'IČ DPH must be SK followed by 10 digits';
  if (BigInt(vat.slice(2)) % 11n !== 0n) return 'IČ DPH is not divisible by 11';
  return null;
}

/** EU VAT numbers outside Slovakia: country prefix and 2-12 characters, checked by shape only. */
export function foreignVatIdProblem(value: string): string | null {
  return /^(?:EL|[A-Z]{2})[0-9A-Z+*]{2,12}$/.test(digitsOnly(value).toUpperCase())
    ? null
    : 'VAT ID must be a country prefix followed by 2-12 letters or digits';
}

/** Any VAT ID: the Slovak rule for SK, the shape rule for other countries. */
export function vatIdProblem(value: string): string | null {
  const vat = normaliseVatId(value);
  return vat.startsWith('SK') ? icDphProblem(vat) : foreignVatIdProblem(vat);
}

/** The comparable form of a VAT ID: upper case, no spaces. */
export function normaliseVatId(value: string): string {
  return digitsOnly(value).toUpperCase();
}

/** Slovak IBAN: SK + 2 check digits + 20 digits (22 digits after SK), ISO 13616 mod 97 = 1. */
export function skIbanProblem(value: string): string | null {
  const iban = digitsOnly(value).toUpperCase();
  if (!/^SK\d{22}$/.test(iban)) return 'IBAN must be SK followed by 22 digits';
  if (ibanMod97(iban) !== 1) return 'IBAN check digits do not match';
  return null;
}

/** ISO 7064 mod 97-10 over the IBAN with its first four characters moved to the end. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  const numeric = rearranged.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return Number(BigInt(numeric) % 97n);
}

/** The IBAN with correct check digits for a Slovak bank code and account (bank 4 digits, account 16). */
export function skIban(bankCode: string, account: string): string {
  const bban = bankCode.padStart(4, '0') + account.padStart(16, '0');
  const check = 98 - ibanMod97(`SK00${bban}`);
  return `SK${String(check).padStart(2, '0')}${bban}`;
}

/**
 * Peppol participant IDs of Slovak companies: production `0245:<DIČ>`; the closed-loop sandbox
 * `9950:sk<VAT digits>svctest`. Other schemes are accepted by shape (`<4 digits>:<id>`).
 */
export function peppolIdProblem(value: string): string | null {
  const match = /^(\d{4}):(\S{1,90})$/.exec(value);
  if (!match) return 'Peppol participant ID must be <scheme>:<identifier>, e.g. 0245:2020123456';
  const scheme = match[1] ?? '';
  const id = match[2] ?? '';
  if (scheme === '0245' && dicProblem(id) !== null) return 'a 0245 participant ID must carry a 10-digit DIČ';
  if (scheme === '9950' && /svctest$/i.test(id) && !/^sk\d{10}svctest$/.test(id)) {
    return 'a sandbox participant ID must be 9950:sk<10 VAT digits>svctest';
  }
  return null;
}

/** The sandbox participant ID of a VAT payer, as the closed-loop network addresses it. */
export function sandboxPeppolId(icDph: string): string {
  return `9950:sk${normaliseVatId(icDph).slice(2)}svctest`;
}
