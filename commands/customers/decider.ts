import type { CustomerEvent, CustomerFields } from '../../events/customers.ts';
import { NotFound, visibleTo, type RequestScope } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

type CustomerCommand =
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
      /** the caller's scope: a customer it may not see is not found (access.ts) */
      scope: RequestScope;
      at: string;
    };

type CustomerState =
  | { status: 'none' }
  | { status: 'active' | 'archived'; customer_id: string; organisation_id: string; company_id: string | null };

export const customerNotFound = (message = 'customer not found') => new NotFound('customer_not_found', message);

export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterCustomer':
        if (state.status !== 'none') throw new DomainError('customer_exists', 'customer already exists');
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
        if (state.status === 'none' || !visibleTo(state, command.scope)) throw customerNotFound();
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
