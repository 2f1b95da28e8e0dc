import { countryAlpha2, postalCode, streetLine } from '../../../../commands/lookup/address.ts';
import { currentEntry, terminatedBy, type Dated } from '../../../../commands/lookup/current.ts';
import type { CompanySuggestion } from '../../../../commands/lookup/search.ts';
import type { CompanyFacts } from '../../../../commands/lookup/sources.ts';
import { getJson, isObject, objects, str, type Json } from './http-json.ts';
import type { CompanyRegistry, LookupKey, SearchKey } from './port.ts';

/**
 * The Statistical Office's register of legal persons, entrepreneurs and public bodies (RPO,
 * `…/rpo/v1`): `search?identifier=` or `search?fullName=` lists entities, `entity/{id}` gives one
 * with its legal forms. Names, seats, legal forms and identifiers are lists of entries with
 * validFrom/validTo: the current one is taken (commands/lookup/current.ts). Its name search ignores
 * diacritics itself.
 */
interface RpoOptions {
  baseUrl: string;
  fetch?: typeof fetch;
}

type Entry = Json & Dated;
const entries = (v: unknown): Entry[] => objects(v) as Entry[];
const codeOf = (v: unknown): string | null => (isObject(v) ? str(v.code) : null);
const valueOf = (v: unknown): string | null => (isObject(v) ? str(v.value) : str(v));

/** Whether the entity carries this IČO (any of its identifier entries: an IČO is never reused). */
const carries = (entity: Json, ico: string) => entries(entity.identifiers).some((i) => str(i.value)?.replace(/\s+/g, '') === ico);

function seat(entity: Json, today: string): { street: string | null; city: string | null; postal_code: string | null; country_code: string | null } {
  const address = currentEntry(entries(entity.addresses), today);
  if (!address) return { street: null, city: null, postal_code: null, country_code: null };
  const municipality = valueOf(address.municipality);
  const postal = Array.isArray(address.postalCodes) ? str(address.postalCodes[0]) : null;
  return {
    street: streetLine({ street: str(address.street), regNumber: str(address.regNumber), buildingNumber: str(address.buildingNumber), municipality }),
    city: municipality,
    postal_code: postalCode(postal),
    country_code: countryAlpha2(codeOf(address.country)),
  };
}

const nameOf = (entity: Json, today: string) => str(currentEntry(entries(entity.fullNames), today)?.value);

function facts(entity: Json, today: string): CompanyFacts {
  const legalForm = currentEntry(entries(entity.legalForms), today);
  return {
    name: nameOf(entity, today),
    ...seat(entity, today),
    legal_form_code: legalForm ? codeOf(legalForm.value) : null,
    terminated: terminatedBy(str(entity.termination), today),
  };
}

function suggestion(entity: Json, ico: string, today: string): CompanySuggestion | null {
  const name = nameOf(entity, today);
  if (!name) return null;
  const { street, city } = seat(entity, today);
  return { ico, name, street, city, terminated: terminatedBy(str(entity.termination), today) };
}

/** The entity's current IČO (an entity may list more than one over time). */
const icoOf = (entity: Json, today: string) => str(currentEntry(entries(entity.identifiers), today)?.value)?.replace(/\s+/g, '') ?? null;

function results(body: unknown): Json[] {
  if (!isObject(body) || !Array.isArray(body.results)) throw new Error('the answer has no results list');
  return objects(body.results);
}

export function rpoRegistry(options: RpoOptions): CompanyRegistry {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function searchFor(params: Record<string, string>, signal: AbortSignal): Promise<Json[]> {
    const answer = await getJson(fetcher, `${base}/search?${new URLSearchParams(params)}`, signal);
    return answer.status === 'not_found' ? [] : results(answer.body);
  }

  return {
    source: 'rpo',
    needsDic: false,
    async find(key: LookupKey, signal) {
      const matches = (await searchFor({ identifier: key.ico }, signal)).filter((e) => carries(e, key.ico));
      // the one still in business, else the last founded (an IČO is not reused, but a register may list a transformed entity twice)
      const [chosen] = matches.sort((a, b) =>
        Number(terminatedBy(str(a.termination), key.today)) - Number(terminatedBy(str(b.termination), key.today))
        || (str(b.establishment) ?? '').localeCompare(str(a.establishment) ?? ''));
      if (!chosen) return null;
      const id = str(chosen.id);
      if (id === null || !/^\d+$/.test(id)) throw new Error('a search result without a numeric id');
      const detail = await getJson(fetcher, `${base}/entity/${id}`, signal);
      // the entity vanished between the two calls: what the search row says is still the register's word
      const entity = detail.status === 'ok' && isObject(detail.body) ? detail.body : chosen;
      return facts(entity, key.today);
    },
    async search(key: SearchKey, signal) {
      const found = await searchFor(key.ico ? { identifier: key.ico } : { fullName: key.text }, signal);
      return found.flatMap((entity) => {
        const ico = icoOf(entity, key.today);
        const s = ico ? suggestion(entity, ico, key.today) : null;
        return s ? [s] : [];
      });
    },
  };
}
