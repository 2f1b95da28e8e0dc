import type { DataSource } from 'typeorm';
import { registeredCompanies } from '../../../../../projections/tenancy/queries.ts';
import type { CompanyRow } from '../../../../../projections/tenancy/rows.ts';
import type { RegisteredCompanies } from './index.ts';
import type { SandboxCompany } from './fixtures.ts';

/** Name-search candidates at most: the sandbox matches them in memory. */
const SEARCH_CANDIDATES = 5_000;

/** A company of this service as the sandbox register shows it: no seat is recorded here, and it is VAT-registered when its VAT id is SK + its DIČ. */
function asRegistered(row: CompanyRow): SandboxCompany {
  const dic = row.dic || null;
  return {
    ico: row.ico, name: row.name, street: null, city: null, postal_code: null, legal_form_code: null, dic,
    vat_registered: dic !== null && row.vat_id.toUpperCase() === `SK${dic}`, terminated: false,
  };
}

/** This service's companies (tenancy read model), for the sandbox register. */
export function registeredCompaniesOf(readModels: DataSource): RegisteredCompanies {
  const one = async (filter: { ico: string } | { dic: string }) => {
    const [row] = await registeredCompanies(readModels, { ...filter, limit: 1 });
    return row ? asRegistered(row) : null;
  };
  return {
    byIco: (ico) => one({ ico }),
    byDic: (dic) => one({ dic }),
    all: async () => (await registeredCompanies(readModels, { limit: SEARCH_CANDIDATES })).map(asRegistered),
  };
}
