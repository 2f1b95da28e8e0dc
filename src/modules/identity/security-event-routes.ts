import { Type } from '@sinclair/typebox';
import { listSecurityEvents } from '../../../projections/identity/queries.ts';
import { ErrorBody, Page, PagingQuery } from '../../../schemas/common/index.ts';
import type { Core } from '../../platform/core.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

const SecurityEvent = Type.Object({
  id: Type.String(),
  type: Type.String({ description: 'LoginFailed, LoginSucceeded, RefreshFamilyRevoked (a reused refresh token ended a session), PasswordChanged, TotpEnabled, TotpDisabled, CredentialCheckFailed (a wrong current password or code on one of those)' }),
  email: Type.Union([Type.String(), Type.Null()]),
  user_id: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Union([Type.String(), Type.Null()], { description: 'why it failed (wrong_password, invalid_totp_code, ...; <action>:<reason> for a CredentialCheckFailed), how it succeeded, or reuse_detected' }),
  at: Type.String({ format: 'date-time' }),
});

export function securityEventRoutes(deps: Pick<Core, 'readModels'>): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/security-events', operationId: 'listSecurityEvents', tags: ['security'], auth: 'api', permission: 'security_events.read',
      summary: 'The organisation\'s security log: sign-ins and their failures, reused refresh tokens',
      query: PagingQuery,
      responses: { 200: { description: 'newest first', schema: Page(SecurityEvent) }, 403: { description: '`insufficient_role`: admins only', schema: ErrorBody } },
      async handle({ actor, query }) {
        const found = await listSecurityEvents(deps.readModels, actor.organisationId, pageRequest(query));
        return { status: 200, body: listPage(found, query, (r) => ({ ...r, at: new Date(r.at).toISOString() })) };
      },
    }),
  ];
}
