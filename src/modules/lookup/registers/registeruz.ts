import { postalCode } from '../../../../commands/lookup/address.ts';
import { terminatedBy } from '../../../../commands/lookup/current.ts';
import type { CompanyFacts } from '../../../../commands/lookup/sources.ts';
import { getJson, isObject, str, type Json } from './http-json.ts';
import type { CompanyRegistry, LookupKey } from './port.ts';

/**
 * The register of financial statements' open API (RegisterUZ, `…/cruz-public/api`): every
 * accounting unit filing statements, with its DIČ, which RPO does not carry.
 * `uctovne-jednotky?zmenene-od=…&ico=` lists the units' ids (the date filter is mandatory; the
 * earliest date lists them all), `uctovna-jednotka?id=` gives one: ico, dic, nazovUJ, ulica,
 * mesto, psc, pravnaForma, datumZrusenia. It cannot search by name.
 */
interface RegisterUzOptions {
  baseUrl: string;
  fetch?: typeof fetch;
}

/** The earliest change date the API takes: lists every unit ever recorded. */
const SINCE = '2000-01-01';
/** An IČO has one unit, rarely a few (re-registered after a deletion): the newest few are read. */
const MAX_UNITS = 3;

export function registerUzRegistry(options: RegisterUzOptions): CompanyRegistry {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function unit(id: number, signal: AbortSignal): Promise<Json | null> {
    const answer = await getJson(fetcher, `${base}/uctovna-jednotka?id=${id}`, signal);
    if (answer.status === 'not_found') return null;
    if (!isObject(answer.body)) throw new Error('a unit that is not an object');
    return answer.body;
  }

  return {
    source: 'registeruz',
    needsDic: false,
    async find(key: LookupKey, signal) {
      const listed = await getJson(fetcher, `${base}/uctovne-jednotky?${new URLSearchParams({ 'zmenene-od': SINCE, ico: key.ico })}`, signal);
      if (listed.status === 'not_found') return null;
      if (!isObject(listed.body) || !Array.isArray(listed.body.id)) throw new Error('the answer has no id list');
      const ids = listed.body.id.filter((v): v is number => Number.isSafeInteger(v)).sort((a, b) => b - a).slice(0, MAX_UNITS);
      const units = (await Promise.all(ids.map((id) => unit(id, signal)))).filter((u): u is Json => u !== null && str(u.ico) === key.ico);
      // a unit not deleted and not dissolved first, newest first (ids grow)
      const alive = (u: Json) => str(u.stav) !== 'ZMAZANÉ' && !terminatedBy(str(u.datumZrusenia), key.today);
      const chosen = units.find(alive) ?? units[0];
      if (!chosen) return null;
      const facts: CompanyFacts = {
        name: str(chosen.nazovUJ),
        street: str(chosen.ulica),
        city: str(chosen.mesto),
        postal_code: postalCode(str(chosen.psc)),
        dic: str(chosen.dic),
        legal_form_code: str(chosen.pravnaForma),
        terminated: terminatedBy(str(chosen.datumZrusenia), key.today),
      };
      return facts;
    },
  };
}
