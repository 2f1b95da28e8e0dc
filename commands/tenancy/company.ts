import type { CompanyEvent, CompanyFields, CompanyProfile } from '../../events/tenancy.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { NotFound } from '../shared/access.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { dicProblem, icDphProblem, icoProblem, normaliseVatId, peppolIdProblem } from '../shared/slovak-identifiers.ts';
import { changedFields, checkProfile, normaliseProfile, profileOf, profileProblems } from './company-profile.ts';

type CompanyCommand =
  | {
      type: 'RegisterCompany';
      company_id: string;
      organisation_id: string;
      workspace_id: string;
      fields: CompanyFields;
      at: string;
    }
  /** PATCH: only the fields given change; the caller's organisation must be the company's */
  | { type: 'UpdateCompanyProfile'; company_id: string; organisation_id: string; changes: Partial<CompanyProfile>; at: string };

/** A company as its stream stands: who it is and its profile now (GET /companies/{id} answers it). */
export type CompanyState =
  | { exists: false }
  | {
      exists: true;
      company_id: string;
      organisation_id: string;
      workspace_id: string;
      fields: CompanyFields;
      profile: CompanyProfile;
      registered_at: string;
      updated_at: string;
    };

/**
 * A company issues invoices, so every identifier must be valid and the VAT ID must be SK + DIČ.
 * Its profile (address, register entry, contact, BIC) is optional: the parts given are trimmed and
 * checked by the profile's rules (company-profile.ts), the parts not given stay out.
 */
export function companyFields(input: CompanyFields): CompanyFields {
  const { name, vat_id, ico, dic, peppol_id, ...profile } = input;
  const fields: CompanyFields = { name, vat_id: normaliseVatId(vat_id), ico, dic, peppol_id, ...normaliseProfile(profile) };
  checkFields((problem) => {
    if (!fields.name.trim()) problem('name', 'name must not be blank', input.name);
    const vat = icDphProblem(fields.vat_id);
    if (vat) problem('vat_id', vat, input.vat_id);
    const icoWrong = icoProblem(fields.ico);
    if (icoWrong) problem('ico', icoWrong, input.ico);
    const dicWrong = dicProblem(fields.dic);
    if (dicWrong) problem('dic', dicWrong, input.dic);
    if (!vat && !dicWrong && fields.vat_id.slice(2) !== fields.dic) problem('dic', 'the VAT ID must be SK + the DIČ', input.dic);
    const peppol = peppolIdProblem(fields.peppol_id);
    if (peppol) problem('peppol_id', peppol, input.peppol_id);
    profileProblems(profileOf(fields), input, problem);
  });
  return fields;
}

const notFound = () => new NotFound('company_not_found', 'company not found');

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterCompany':
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
      case 'UpdateCompanyProfile': {
        if (!state.exists || state.organisation_id !== command.organisation_id) throw notFound();
        const changes = normaliseProfile(command.changes);
        const next = { ...state.profile, ...changes };
        checkProfile(next, command.changes);
        // the same values again change nothing
        if (changedFields(state.profile, next).length === 0) return [];
        return [{ type: 'CompanyProfileUpdated', data: { company_id: state.company_id, organisation_id: state.organisation_id, ...next, updated_at: command.at } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'CompanyRegistered': {
        const { company_id, organisation_id, workspace_id, registered_at, ...fields } = event.data;
        return { exists: true, company_id, organisation_id, workspace_id, fields, profile: profileOf(fields), registered_at, updated_at: registered_at };
      }
      case 'CompanyProfileUpdated': {
        if (!state.exists) return state;
        const { company_id: _id, organisation_id: _org, updated_at, ...profile } = event.data;
        return { ...state, profile, updated_at };
      }
    }
  },
};
