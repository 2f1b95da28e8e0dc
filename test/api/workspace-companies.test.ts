import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** Issue 19 part 3: GET /workspaces/{workspace_id}/companies answers {data: [{id, name, role}]}. */
describe('workspace companies over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let other: Awaited<ReturnType<typeof createTestOrganisation>>;

  before(async () => {
    svc = await startTestService();
    other = await createTestOrganisation(svc.services, 'Team Business', ['accountant', 'approver']);
  });
  after(async () => svc?.close());

  async function asUser(email: string, password: string, path: string) {
    const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const answer = await fetch(`${svc.api}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, body: (await answer.json()) as { data: { id: string; name: string; role: string }[] } };
  }

  it('an API key sees the workspace\'s companies, oldest first, as admin, in a bare data array', async () => {
    const answer = await svc.call('GET', `/workspaces/${svc.demo.workspace_id}/companies`);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({ data: svc.demo.companies.map((c) => ({ id: c.id, name: c.name, role: 'admin' })) });
  });

  it('a signed-in user sees their own role', async () => {
    for (const role of ['accountant', 'approver'] as const) {
      const user = other.users[role]!;
      const answer = await asUser(user.email, user.password, `/workspaces/${other.workspaceId}/companies`);
      expect([answer.status, answer.body], role).to.deep.equal([200, { data: [{ id: other.companyId, name: 'Firma s.r.o.', role }] }]);
    }
  });

  it('another organisation\'s workspace, or none, is 404 workspace_not_found; a malformed id 422', async () => {
    for (const id of [other.workspaceId, randomUUID()]) {
      const answer = await svc.call('GET', `/workspaces/${id}/companies`);
      expect([answer.status, answer.body.detail.error]).to.deep.equal([404, 'workspace_not_found']);
    }
    const user = other.users.accountant!;
    expect((await asUser(user.email, user.password, `/workspaces/${svc.demo.workspace_id}/companies`)).status).to.equal(404);
    expect((await svc.call('GET', '/workspaces/not-a-uuid/companies')).status).to.equal(422);
  });

  it('needs credentials', async () => expect((await fetch(`${svc.api}/workspaces/${svc.demo.workspace_id}/companies`)).status).to.equal(401));
});
