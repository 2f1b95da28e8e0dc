import { dicProblem } from '../shared/slovak-identifiers.ts';
import { SOURCE_ORDER, companyNotFound, registryUnavailable, type CompanyFacts, type SourceName, type SourceOutcome } from './sources.ts';

/** The spec's lookup result. Unknown values are null. */
export interface CompanyLookup {
  ico: string;
  name: string | null;
  street: string | null;
  city: string | null;
  postal_code: string | null;
  country_code: string;
  dic: string | null;
  /** SK + DIČ, only when VIES confirms the company is VAT-registered */
  ic_dph: string | null;
  is_vat_registered: boolean;
  legal_form_code: string | null;
  /** the sources that answered with something about this company */
  sources: SourceName[];
}

interface MergedLookup {
  answer: CompanyLookup;
  /** every source answered (none down or timed out): worth caching for long */
  complete: boolean;
}

type Found = Extract<SourceOutcome, { status: 'found' }>;

/** Which identity sources a field is taken from, first that has a value wins. */
const IDENTITY: readonly SourceName[] = ['rpo', 'registeruz'];
/** The DIČ is RegisterUZ's to give; RPO does not carry it. */
const DIC_FROM: readonly SourceName[] = ['registeruz', 'rpo'];

const text = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim().replace(/\s+/g, ' ');
  return trimmed ? trimmed : null;
};

function found(outcomes: readonly SourceOutcome[], order: readonly SourceName[]): Found[] {
  return order.flatMap((source) => outcomes.filter((o): o is Found => o.source === source && o.status === 'found'));
}

function first(outcomes: readonly SourceOutcome[], order: readonly SourceName[], pick: (f: CompanyFacts) => string | null | undefined): string | null {
  for (const o of found(outcomes, order)) {
    const value = text(pick(o.facts));
    if (value !== null) return value;
  }
  return null;
}

/** A DIČ as the registers should give it (10 digits); anything else is not trusted, so null. */
function validDic(value: string | null): string | null {
  const dic = value?.replace(/\s+/g, '') ?? null;
  return dic !== null && dicProblem(dic) === null ? dic : null;
}

/**
 * The DIČ the identity sources give, which VIES is then asked about (SK + DIČ). Null when none
 * gives a valid one: VIES is not asked, and the company counts as not VAT-registered.
 */
export function dicFrom(outcomes: readonly SourceOutcome[]): string | null {
  return validDic(first(outcomes, DIC_FROM, (f) => f.dic));
}

/**
 * One answer from the sources' answers:
 *  - name and legal form: RPO first (the register of record, current entries), else RegisterUZ;
 *  - the address as one block (street, city, postal code, country) from the first source that has
 *    any part of it, so a street is never paired with another register's postal code;
 *  - the DIČ: RegisterUZ's (validated: 10 digits);
 *  - is_vat_registered: what VIES says of SK + DIČ; false when VIES was not asked or did not
 *    answer (`sources` then lacks `vies`), and ic_dph is SK + DIČ only when VIES says registered;
 *  - country_code: SK unless the address source names another country;
 *  - sources: those that answered with something about the company, in the order rpo, registeruz, vies.
 * No identity source found it: 404 `company_not_found` when RPO (which holds every legal person and
 * entrepreneur) says so; else 502 `company_registry_unavailable` (down, so nobody can tell).
 */
export function mergeLookup(ico: string, outcomes: readonly SourceOutcome[]): MergedLookup {
  const identity = found(outcomes, IDENTITY);
  if (identity.length === 0) {
    if (outcomes.some((o) => o.source === 'rpo' && o.status === 'not_found')) throw companyNotFound(ico);
    throw registryUnavailable(outcomes.filter((o) => o.status === 'unavailable').map((o) => o.source));
  }
  const addressSource = identity.find(({ facts: f }) => [f.street, f.city, f.postal_code].some((v) => text(v) !== null));
  const address = addressSource?.facts ?? {};
  const dic = dicFrom(outcomes);
  const vies = found(outcomes, ['vies'])[0];
  const registered = dic !== null && vies?.facts.vat_registered === true;
  return {
    answer: {
      ico,
      name: first(outcomes, IDENTITY, (f) => f.name),
      street: text(address.street),
      city: text(address.city),
      postal_code: text(address.postal_code),
      country_code: text(address.country_code)?.toUpperCase() ?? 'SK',
      dic,
      ic_dph: registered ? `SK${dic}` : null,
      is_vat_registered: registered,
      legal_form_code: first(outcomes, IDENTITY, (f) => f.legal_form_code),
      sources: found(outcomes, SOURCE_ORDER).map((o) => o.source),
    },
    complete: outcomes.every((o) => o.status !== 'unavailable'),
  };
}
