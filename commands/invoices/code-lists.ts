/**
 * The code lists the business rules check against. The big ones (UN/ECE Rec. 20 + 21 units, CEF
 * VATEX, ISO 4217, ISO 3166-1) are data in the official CEN artifacts and are loaded from there once
 * at start-up (src/modules/invoices/code-lists-loader.ts), never copied into the repo: they change with
 * each artifacts release, and the rules must agree with the Schematron that validates the UBL.
 * The small, stable lists are embedded here.
 */

export interface CodeLists {
  /** UN/ECE Recommendation 20 with Recommendation 21 (BR-CL-23) */
  unitCodes: ReadonlySet<string>;
  /** CEF VATEX exemption reason codes, upper case (BR-CL-22 compares them upper-cased) */
  vatexCodes: ReadonlySet<string>;
  /** ISO 4217 alpha-3 (BR-CL-04) */
  currencyCodes: ReadonlySet<string>;
  /** ISO 3166-1 alpha-2, plus 1A (Kosovo) and XI (Northern Ireland) as EN16931 has them (BR-CL-14) */
  countryCodes: ReadonlySet<string>;
}

/** The code lists from plain arrays (what the loader extracts; small hand-made lists in tests). */
export function codeLists(lists: {
  unitCodes: Iterable<string>;
  vatexCodes: Iterable<string>;
  currencyCodes: Iterable<string>;
  countryCodes: Iterable<string>;
}): CodeLists {
  return {
    unitCodes: new Set(lists.unitCodes),
    vatexCodes: new Set([...lists.vatexCodes].map((code) => code.toUpperCase())),
    currencyCodes: new Set(lists.currencyCodes),
    countryCodes: new Set(lists.countryCodes),
  };
}

/** UNCL 5305 tax categories as EN16931 allows them (BR-CL-18). B (split payment) is Italian only. */
export const TAX_CATEGORY_CODES: ReadonlySet<string> = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'B']);

/**
 * The account currency an IBAN country implies, as SK-UBL.sch's sk:iban-currency has it (SK-SVC-003);
 * countries whose accounts may be held in any currency are absent.
 */
const EURO_IBAN_COUNTRIES = ['SK', 'AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI'];
const OTHER_IBAN_CURRENCIES: Readonly<Record<string, string>> = {
  CZ: 'CZK',
  HU: 'HUF',
  PL: 'PLN',
  GB: 'GBP',
  CH: 'CHF',
  SE: 'SEK',
  DK: 'DKK',
  NO: 'NOK',
  RO: 'RON',
  BG: 'BGN',
};

export function ibanCurrency(ibanCountry: string): string | null {
  const country = ibanCountry.toUpperCase();
  if (EURO_IBAN_COUNTRIES.includes(country)) return 'EUR';
  return OTHER_IBAN_CURRENCIES[country] ?? null;
}
