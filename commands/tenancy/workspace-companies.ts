import type { Actor, Role } from '../shared/actor.ts';
import { effectiveRole } from '../identity/permissions.ts';

interface WorkspaceCompany {
  id: string;
  name: string;
  /** the caller's role in this company: roles are the organisation's, so the same for every company of it; an API key is admin */
  role: Role;
}

/** GET /workspaces/{id}/companies: each company of the workspace with the role the caller acts in there. */
export function workspaceCompanies(companies: readonly { id: string; name: string }[], actor: Pick<Actor, 'type' | 'role'>): WorkspaceCompany[] {
  const role = effectiveRole(actor);
  return companies.map((c) => ({ id: c.id, name: c.name, role }));
}
