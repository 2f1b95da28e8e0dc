import { Type } from '@sinclair/typebox';
import { NotFound } from '../../../commands/shared/access.ts';
import { workspaceCompanies } from '../../../commands/tenancy/workspace-companies.ts';
import { listWorkspaceCompanies, workspaceExists } from '../../../projections/tenancy/queries.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { WorkspaceCompanyList } from '../../../schemas/lookup.ts';
import type { Core } from '../../platform/core.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

/** GET /workspaces/{workspace_id}/companies. */
export function workspaceRoutes(deps: Pick<Core, 'readModels'>): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/workspaces/{workspace_id}/companies', operationId: 'listWorkspaceCompanies', tags: ['workspaces'], auth: 'api', permission: 'workspaces.read',
      summary: 'The companies of a workspace, with the caller\'s role in each',
      description: [
        'A `data` array as the spec gives it, not the paginated envelope: a workspace holds a handful of companies. Oldest first.',
        '`role` is the caller\'s role: a signed-in user\'s or an OAuth client\'s own (roles are the organisation\'s, so the same in every company),',
        'and `admin` for an API key. Every role may read it. Another organisation\'s workspace, or none, is 404 `workspace_not_found`.',
      ].join(' '),
      params: Type.Object({ workspace_id: Uuid }),
      responses: {
        200: { description: 'the companies', schema: WorkspaceCompanyList },
        404: { description: '`workspace_not_found`: no such workspace in the caller\'s organisation', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        if (!(await workspaceExists(deps.readModels, actor.organisationId, params.workspace_id))) throw new NotFound('workspace_not_found', 'workspace not found');
        const rows = await listWorkspaceCompanies(deps.readModels, actor.organisationId, params.workspace_id);
        return { status: 200, body: { data: workspaceCompanies(rows, actor) } };
      },
    }),
  ];
}
