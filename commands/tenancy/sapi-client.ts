import type { SapiClientEvent, SapiClientIssued } from '../../events/tenancy.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

export type SapiClientCommand = { type: 'IssueSapiClient'; data: SapiClientIssued['data'] };

export const sapiClientDecider: Decider<SapiClientCommand, SapiClientEvent, { exists: boolean }> = {
  initialState: { exists: false },
  decide(command, state) {
    if (state.exists) throw new DomainError('sapi_client_exists', 'SAPI-SK client already exists');
    return [{ type: 'SapiClientIssued', data: command.data }];
  },
  evolve: () => ({ exists: true }),
};
