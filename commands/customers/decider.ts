import type { CustomerEvent, CustomerFields } from '../../events/customers.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

export type CustomerCommand =
  | {
      type: 'RegisterCustomer';
      customer_id: string;
      organisation_id: string;
      company_id: string | null;
      fields: CustomerFields;
      at: string;
    }
  | {
      type: 'ArchiveCustomer';
      customer_id: string;
      /** the caller's scope: a customer outside it is not found */
      organisation_id: string;
      company_id: string | null;
      at: string;
    };

export type CustomerState =
  | { status: 'none' }
  | { status: 'active' | 'archived'; customer_id: string; organisation_id: string; company_id: string | null };

/** A customer is visible in its organisation, and through a company's routes when it is that company's or organisation-wide. */
export function visibleTo(state: CustomerState, organisationId: string, companyId: string | null): boolean {
  if (state.status === 'none' || state.organisation_id !== organisationId) return false;
  return companyId === null || state.company_id === null || state.company_id === companyId;
}

export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterCustomer':
        if (state.status !== 'none') throw new DomainError('customer_exists', 409, 'customer already exists');
        return [
          {
            type: 'CustomerRegistered',
            data: {
              customer_id: command.customer_id,
              organisation_id: command.organisation_id,
              company_id: command.company_id,
              ...command.fields,
              registered_at: command.at,
            },
          },
        ];
      case 'ArchiveCustomer':
        if (state.status === 'none' || !visibleTo(state, command.organisation_id, command.company_id)) {
          throw new DomainError('customer_not_found', 404, 'customer not found');
        }
        if (state.status === 'archived') return []; // archiving twice changes nothing
        return [{ type: 'CustomerArchived', data: { customer_id: command.customer_id, archived_at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CustomerRegistered':
        return {
          status: 'active',
          customer_id: event.data.customer_id,
          organisation_id: event.data.organisation_id,
          company_id: event.data.company_id,
        };
      case 'CustomerArchived':
        return state.status === 'none' ? state : { ...state, status: 'archived' };
    }
  },
};
