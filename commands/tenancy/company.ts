import type { CompanyEvent, CompanyFields } from '../../events/tenancy.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import {
  dicProblem,
  icDphProblem,
  icoProblem,
  normaliseVatId,
  peppolIdProblem,
  skIbanProblem,
} from '../shared/slovak-identifiers.ts';

type CompanyCommand = {
  type: 'RegisterCompany';
  company_id: string;
  organisation_id: string;
  workspace_id: string;
  fields: CompanyFields;
  at: string;
};
type CompanyState = { exists: boolean };

/** A Slovak post code (PSČ): `NNN NN` or `NNNNN`, as the party block has it. */
const POSTAL_CODE = /^\d{3} ?\d{2}$/;

/**
 * A company issues invoices, so every identifier must be valid and the VAT ID must be SK + DIČ.
 * Its address is optional (the seller's address on its invoices); the parts given are trimmed.
 */
export function companyFields(input: CompanyFields): CompanyFields {
  const address = {
    ...(input.street === undefined ? {} : { street: input.street.trim() }),
    ...(input.city === undefined ? {} : { city: input.city.trim() }),
    ...(input.postal_code === undefined ? {} : { postal_code: input.postal_code.trim() }),
  };
  const fields = { ...input, ...address, vat_id: normaliseVatId(input.vat_id), iban: input.iban.replace(/\s+/g, '').toUpperCase() };
  checkFields((problem) => {
    if (fields.postal_code && !POSTAL_CODE.test(fields.postal_code)) problem('postal_code', 'a Slovak post code is NNN NN or NNNNN', input.postal_code);
    if (!fields.name.trim()) problem('name', 'name must not be blank', input.name);
    const vat = icDphProblem(fields.vat_id);
    if (vat) problem('vat_id', vat, input.vat_id);
    const ico = icoProblem(fields.ico);
    if (ico) problem('ico', ico, input.ico);
    const dic = dicProblem(fields.dic);
    if (dic) problem('dic', dic, input.dic);
    if (!vat && !dic && fields.vat_id.slice(2) !== fields.dic) problem('dic', 'the VAT ID must be SK + the DIČ', input.dic);
    const peppol = peppolIdProblem(fields.peppol_id);
    if (peppol) problem('peppol_id', peppol, input.peppol_id);
    const iban = skIbanProblem(fields.iban);
    if (iban) problem('iban', iban, input.iban);
  });
  return fields;
}

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: { exists: false },
  decide(command, state) {
    if (state.exists) throw new DomainError('company_exists', 'company already exists');
    return [
      {
        type: 'CompanyRegistered',
        data: {
          company_id: command.company_id,
          organisation_id: command.organisation_id,
          workspace_id: command.workspace_id,
          ...companyFields(command.fields),
          registered_at: command.at,
        },
      },
    ];
  },
  evolve: () => ({ exists: true }),
};
