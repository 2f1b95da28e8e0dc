import type { OrganisationEvent } from '../../events/tenancy.ts';
import type { Role } from '../shared/actor.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

type OrganisationCommand =
  | { type: 'CreateOrganisation'; organisation_id: string; name: string; plan: string; at: string }
  | { type: 'CreateWorkspace'; organisation_id: string; workspace_id: string; name: string; at: string }
  | {
      type: 'AddUser';
      organisation_id: string;
      user_id: string;
      email: string;
      name: string;
      role: Role;
      password_hash: string;
      at: string;
    }
  | { type: 'ChangePlan'; organisation_id: string; plan: string; at: string };

type OrganisationState =
  | { exists: false }
  | { exists: true; workspaces: Set<string>; emails: Set<string>; plan: string };

const notFound = () => new DomainError('organisation_not_found', 'organisation not found');

export const organisationDecider: Decider<OrganisationCommand, OrganisationEvent, OrganisationState> = {
  initialState: { exists: false },

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganisation':
        if (state.exists) throw new DomainError('organisation_exists', 'organisation already exists');
        return [
          {
            type: 'OrganisationCreated',
            data: { organisation_id: command.organisation_id, name: command.name, plan: command.plan, created_at: command.at },
          },
        ];
      case 'CreateWorkspace':
        if (!state.exists) throw notFound();
        if (state.workspaces.has(command.workspace_id)) return [];
        return [
          {
            type: 'WorkspaceCreated',
            data: { organisation_id: command.organisation_id, workspace_id: command.workspace_id, name: command.name, created_at: command.at },
          },
        ];
      case 'AddUser': {
        if (!state.exists) throw notFound();
        const email = command.email.trim().toLowerCase();
        if (state.emails.has(email)) throw new DomainError('user_exists', `a user with e-mail ${email} already exists`);
        return [
          {
            type: 'UserAdded',
            data: {
              organisation_id: command.organisation_id,
              user_id: command.user_id,
              email,
              name: command.name,
              role: command.role,
              password_hash: command.password_hash,
              added_at: command.at,
            },
          },
        ];
      }
      case 'ChangePlan': {
        if (!state.exists) throw notFound();
        if (!command.plan.trim()) throw new DomainError('plan_required', 'the plan must not be blank');
        if (command.plan === state.plan) return []; // the same plan again changes nothing
        return [{ type: 'OrganisationPlanChanged', data: { organisation_id: command.organisation_id, plan: command.plan, previous_plan: state.plan, changed_at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganisationCreated':
        return { exists: true, workspaces: new Set(), emails: new Set(), plan: event.data.plan };
      case 'WorkspaceCreated':
        return state.exists ? { ...state, workspaces: new Set([...state.workspaces, event.data.workspace_id]) } : state;
      case 'UserAdded':
        return state.exists ? { ...state, emails: new Set([...state.emails, event.data.email]) } : state;
      case 'OrganisationPlanChanged':
        return state.exists ? { ...state, plan: event.data.plan } : state;
    }
  },
};
