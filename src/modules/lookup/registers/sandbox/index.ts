import { nameMatches } from '../../../../../commands/lookup/text.ts';
import type { CompanySuggestion } from '../../../../../commands/lookup/search.ts';
import type { SourceName } from '../../../../../commands/lookup/sources.ts';
import type { CompanyRegistry, LookupKey, SearchKey } from '../port.ts';
import { SANDBOX_COMPANIES, type SandboxCompany } from './fixtures.ts';

/** The companies of this service (any organisation's), as the sandbox register knows them; the fixtures come first. */
export interface RegisteredCompanies {
  byIco(ico: string): Promise<SandboxCompany | null>;
  byDic(dic: string): Promise<SandboxCompany | null>;
  /** candidates for a name search (the sandbox matches them itself) */
  all(): Promise<SandboxCompany[]>;
}

export interface SandboxRegistry {
  /** the three simulated sources, named as the real ones, so merges and partial answers behave as live */
  registries: CompanyRegistry[];
  /** fault switch: a source that is down throws, as an unreachable register would */
  setDown(source: SourceName, down: boolean): void;
  /** how often each source was asked (a cache hit asks none) */
  calls: Record<SourceName, number>;
}

/**
 * The default company register outside production and in tests: the fixtures and this service's
 * own companies (so the demo's companies are found too), served as the three sources would serve
 * them: `rpo` (name, seat, legal form, termination; searches), `registeruz` (the DIČ, for those with
 * one) and `vies` (VAT registration). Nothing leaves the machine.
 */
export function sandboxRegistry(own?: RegisteredCompanies): SandboxRegistry {
  const down = new Set<SourceName>();
  const calls: Record<SourceName, number> = { rpo: 0, registeruz: 0, vies: 0 };

  function enter(source: SourceName): void {
    calls[source] += 1;
    if (down.has(source)) throw new Error(`the sandbox ${source} is switched off`);
  }

  async function company(ico: string): Promise<SandboxCompany | null> {
    return SANDBOX_COMPANIES.find((c) => c.ico === ico) ?? (await own?.byIco(ico)) ?? null;
  }

  const rpo: CompanyRegistry = {
    source: 'rpo',
    needsDic: false,
    async find(key: LookupKey) {
      enter('rpo');
      const c = await company(key.ico);
      return c && { name: c.name, street: c.street, city: c.city, postal_code: c.postal_code, country_code: 'SK', legal_form_code: c.legal_form_code, terminated: c.terminated };
    },
    async search(key: SearchKey) {
      enter('rpo');
      const candidates = [...SANDBOX_COMPANIES, ...((await own?.all()) ?? [])];
      const matches = candidates.filter((c) => (key.ico ? c.ico === key.ico : nameMatches(c.name, key.text)));
      return matches.map((c): CompanySuggestion => ({ ico: c.ico, name: c.name, street: c.street, city: c.city, terminated: c.terminated }));
    },
  };
  const registeruz: CompanyRegistry = {
    source: 'registeruz',
    needsDic: false,
    async find(key: LookupKey) {
      enter('registeruz');
      const c = await company(key.ico);
      return c && c.dic !== null ? { name: c.name, street: c.street, city: c.city, postal_code: c.postal_code, dic: c.dic, legal_form_code: c.legal_form_code, terminated: c.terminated } : null;
    },
  };
  const vies: CompanyRegistry = {
    source: 'vies',
    needsDic: true,
    async find(key: LookupKey) {
      enter('vies');
      if (key.dic === null) return null;
      const c = SANDBOX_COMPANIES.find((f) => f.dic === key.dic) ?? (await own?.byDic(key.dic)) ?? null;
      return { vat_registered: c?.vat_registered === true };
    },
  };

  return { registries: [rpo, registeruz, vies], setDown: (source, isDown) => void (isDown ? down.add(source) : down.delete(source)), calls };
}
