import { Type, type TSchema } from '@sinclair/typebox';
import { listSecurityEvents } from '../../../projections/identity/queries.ts';
import { ErrorBody, Page, PagingQuery } from '../../../schemas/common/index.ts';
import type { Core } from '../../platform/core.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const SecurityEvent = Type.Object({
  id: Type.String(),
  type: Type.String({
    description: 'LoginFailed, LoginSucceeded, RefreshFamilyRevoked (a reused refresh token ended a session), PasswordChanged, TotpEnabled, TotpDisabled, '
      + 'CredentialCheckFailed (a wrong current password or code on one of those), SignInLockedOut (wrong tries locked a user\'s sign-in out), '
      + 'SapiClientLockedOut (wrong secrets locked a SAPI-SK client out for 15 minutes)',
  }),
  email: nullable(Type.String()),
  user_id: nullable(Type.String()),
  ip: nullable(Type.String({ description: 'the address of the try (null for a lock-out, which names its addresses in `ips`)' })),
  detail: nullable(Type.String({
    description: 'why it failed (wrong_password, invalid_totp_code, ...; <action>:<reason> for a CredentialCheckFailed), how it succeeded, reuse_detected, '
      + 'or which sign-in budget a SignInLockedOut emptied (account, two_factor_challenge)',
  })),
  ips: nullable(Type.Array(Type.String(), { description: 'a lock-out: every address whose failed tries caused it, each once, in the order they first failed; null on other events' })),
  locked_until: nullable(Type.String({ format: 'date-time', description: 'a lock-out: when the next try is let through; null on other events' })),
  sapi_client_id: nullable(Type.String({ description: 'a SapiClientLockedOut: the SAPI-SK client locked out' })),
  company_id: nullable(Type.String({ description: 'a SapiClientLockedOut: the company the client belongs to' })),
  at: Type.String({ format: 'date-time' }),
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function securityEventRoutes(deps: Pick<Core, 'readModels'>): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/security-events', operationId: 'listSecurityEvents', tags: ['security'], auth: 'api', permission: 'security_events.read',
      summary: 'The organisation\'s security log: sign-ins and their failures, reused refresh tokens, lock-outs and the addresses that caused them',
      query: PagingQuery,
      responses: { 200: { description: 'newest first', schema: Page(SecurityEvent) }, 403: { description: '`insufficient_role`: admins only', schema: ErrorBody } },
      async handle({ actor, query }) {
        const found = await listSecurityEvents(deps.readModels, actor.organisationId, pageRequest(query));
        return { status: 200, body: listPage(found, query, (r) => ({ ...r, locked_until: iso(r.locked_until), at: new Date(r.at).toISOString() })) };
      },
    }),
  ];
}
