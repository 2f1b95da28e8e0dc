import type { Actor, Role } from '../shared/actor.ts';
import { DomainError } from '../shared/domain-error.ts';

const everyone: readonly Role[] = ['admin', 'approver', 'accountant'];
const admin: readonly Role[] = ['admin'];

/**
 * Who may do what, read as documentation. An admin may do everything. An approver reads,
 * approves or rejects, and sends. An accountant reads, writes drafts, customers and payments and asks for
 * approval, but never touches keys, OAuth clients, webhooks or the security log.
 */
export const PERMISSIONS = {
  'invoices.read': everyone,
  'invoices.write': ['admin', 'accountant'],
  'invoices.request_approval': ['admin', 'accountant'],
  'invoices.approve': ['admin', 'approver'],
  'invoices.send': ['admin', 'approver'],
  'customers.read': everyone,
  'customers.write': ['admin', 'accountant'],
  'payments.read': everyone,
  // recording money received or paid back is bookkeeping: the accountant's, not the approver's
  'payments.write': ['admin', 'accountant'],
  'api_keys.manage': admin,
  'oauth_clients.manage': admin,
  // the spec also wants webhook management done with an API key: an auth-mode check for the route
  'webhooks.manage': admin,
  'security_events.read': admin,
  'settings.manage': admin,
  // company lookup and search read public registers: every caller of the organisation may (docs/lookup.md)
  'companies.lookup': everyone,
  // the workspace's companies and the caller's role in them
  'workspaces.read': everyone,
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

/**
 * What a third party acting through an OAuth client may never do, whatever role its token
 * carries: mint or manage credentials (a key it made would outlive its own revocation) or read
 * the security log. Those stay with the organisation's own admins and API keys (rule 2).
 */
const NOT_FOR_OAUTH_CLIENTS: ReadonlySet<Action> = new Set(['api_keys.manage', 'oauth_clients.manage', 'webhooks.manage', 'security_events.read', 'settings.manage']);

/** An API key acts as an organisation admin (spec rule 2), whatever role it was resolved with. */
export function effectiveRole(actor: Pick<Actor, 'type' | 'role'>): Role {
  return actor.type === 'api_key' ? 'admin' : actor.role;
}

export function mayPerform(actor: Pick<Actor, 'type' | 'role'>, action: Action): boolean {
  if (actor.type === 'oauth_client' && NOT_FOR_OAUTH_CLIENTS.has(action)) return false;
  return (PERMISSIONS[action] as readonly Role[]).includes(effectiveRole(actor));
}

/** Refuses with 403 `insufficient_role`, naming the roles that would have been allowed. */
export function authorize(actor: Pick<Actor, 'type' | 'role'>, action: Action): void {
  if (mayPerform(actor, action)) return;
  const role = effectiveRole(actor);
  if (actor.type === 'oauth_client' && NOT_FOR_OAUTH_CLIENTS.has(action)) {
    throw new DomainError('insufficient_role', `an OAuth client may not perform ${action}: use an API key or sign in as an admin`, { required_roles: [...PERMISSIONS[action]], role });
  }
  throw new DomainError('insufficient_role', `the ${role} role may not perform ${action}`, {
    required_roles: [...PERMISSIONS[action]],
    role,
  });
}
