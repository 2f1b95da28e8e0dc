import type { Role } from '../../commands/shared/actor.ts';
import { randomSandboxIdentity } from '../../src/demo/identifiers.ts';
import { addUser, createOrganisation, createWorkspace, issueApiKey, registerCompany, systemMetadata } from '../../src/modules/tenancy/tenancy.ts';
import type { Service } from '../../src/service.ts';

const metadata = systemMetadata('test');

/** An organisation on `plan` with a workspace, one sandbox company, an API key and users of the given roles (password: Test-pass1!). */
export async function createTestOrganisation(services: Service, plan: string, roles: Role[] = []) {
  const { organisation_id, position: created } = await createOrganisation(services, `Test ${plan}`, plan, metadata);
  const { workspace_id, position: workspace } = await createWorkspace(services, organisation_id, 'W', metadata);
  const { company_id, position: company } = await registerCompany(services, { organisationId: organisation_id, workspaceId: workspace_id, fields: { name: 'Firma s.r.o.', ...randomSandboxIdentity() } }, metadata);
  const key = await issueApiKey(services, { organisationId: organisation_id, name: 'test', issuedBy: 'test' }, metadata);
  const positions = [created, workspace, company, key.position];
  const users: Record<string, { email: string; password: string; id: string }> = {};
  for (const role of roles) {
    const email = `${role}+${organisation_id.slice(0, 8)}@test.example.sk`;
    const { user_id, position } = await addUser(services, { organisationId: organisation_id, email, name: role, role, password: 'Test-pass1!' }, metadata);
    positions.push(position);
    users[role] = { email, password: 'Test-pass1!', id: user_id };
  }
  await services.projections.shown(positions, 30_000);
  return { organisationId: organisation_id, workspaceId: workspace_id, companyId: company_id, apiKey: key.api_key, users };
}
