import { Type } from '@sinclair/typebox';
import { listSecurityEvents } from '../../projections/identity/queries.ts';
import { ErrorBody } from '../../schemas/common/index.ts';
import type { Core } from '../core.ts';
import { defineRoute, type Route } from './route.ts';

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
      query: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'events per page, 1-100' })),
        before: Type.Optional(Type.String({ format: 'date-time', description: 'the `at` of the last event seen: the next page' })),
      }),
      responses: { 200: { description: 'newest first', schema: Type.Object({ data: Type.Array(SecurityEvent) }) }, 403: { description: '`insufficient_role`: admins only', schema: ErrorBody } },
      async handle({ actor, query }) {
        const rows = await listSecurityEvents(deps.readModels, actor.organisationId, query.limit ?? 50, query.before ? new Date(query.before) : null);
        return { status: 200, body: { data: rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() })) } };
      },
    }),
  ];
}
