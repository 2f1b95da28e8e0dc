import type { JWTPayload } from 'jose';
import type { Role } from '../../../commands/shared/actor.ts';
import { InvalidToken } from './invalid-token.ts';
import type { PublicSigningJwk, SigningKeyRing } from './signing-keys.ts';

export { ISSUER } from './signing-keys.ts';
export { InvalidToken, type InvalidTokenReason } from './invalid-token.ts';

/** Spec: login and OAuth access tokens both live 15 minutes. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 900;
/** Distinct audiences, so a user's token and a client's token can never pass as each other. */
export const USER_AUDIENCE = 'sk-einvoicing:user';
export const OAUTH_CLIENT_AUDIENCE = 'sk-einvoicing:oauth-client';
const ACCESS_TOKEN_TYP = 'JWT';

type TokenUse = 'user' | 'oauth_client';
const AUDIENCE: Record<TokenUse, string> = { user: USER_AUDIENCE, oauth_client: OAUTH_CLIENT_AUDIENCE };
const ROLES: readonly Role[] = ['admin', 'approver', 'accountant'];

export interface AccessTokenSubject {
  /** user id, or the OAuth client_id */
  subject: string;
  organisation_id: string;
  role: Role;
  /** the rate limiter takes the plan from here (spec: "plan from the token's plan claim") */
  plan: string;
  token_use: TokenUse;
  /** OAuth scopes, recorded as on API keys (not enforced in v1) */
  scopes?: string[];
  /** refresh family of a user session, so a revoked session can be recognised */
  session_id?: string;
}

interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
  org: string;
  role: Role;
  plan: string;
  token_use: TokenUse;
  /** space-separated, as RFC 6749 writes scopes */
  scope?: string;
  sid?: string;
}

export async function issueAccessToken(
  ring: SigningKeyRing,
  subject: AccessTokenSubject,
  lifetimeSeconds = ACCESS_TOKEN_LIFETIME_SECONDS,
  now?: Date,
): Promise<string> {
  const claims = {
    sub: subject.subject,
    aud: AUDIENCE[subject.token_use],
    org: subject.organisation_id,
    role: subject.role,
    plan: subject.plan,
    token_use: subject.token_use,
    ...(subject.scopes ? { scope: subject.scopes.join(' ') } : {}),
    ...(subject.session_id ? { sid: subject.session_id } : {}),
  };
  return ring.sign(claims, lifetimeSeconds, { typ: ACCESS_TOKEN_TYP, now });
}

/** The claims of a valid access token of either use, or InvalidToken. */
export async function verifyAccessToken(ring: SigningKeyRing, token: string, now?: Date): Promise<AccessTokenClaims> {
  const payload = await ring.verify(token, { audience: [USER_AUDIENCE, OAUTH_CLIENT_AUDIENCE], typ: ACCESS_TOKEN_TYP, now });
  return accessClaims(payload);
}

/** Signed by us is not enough: a claim set of the wrong shape is refused, never half-trusted. */
function accessClaims(payload: JWTPayload): AccessTokenClaims {
  const { iss, aud, sub, iat, nbf, exp, jti, org, role, plan, token_use, scope, sid } = payload;
  const use = token_use === 'user' || token_use === 'oauth_client' ? token_use : null;
  const wellFormed =
    use !== null &&
    aud === AUDIENCE[use] &&
    typeof iss === 'string' &&
    typeof sub === 'string' &&
    typeof iat === 'number' &&
    typeof nbf === 'number' &&
    typeof exp === 'number' &&
    typeof jti === 'string' &&
    typeof org === 'string' &&
    typeof plan === 'string' &&
    ROLES.includes(role as Role) &&
    (scope === undefined || typeof scope === 'string') &&
    (sid === undefined || typeof sid === 'string');
  if (!wellFormed) throw new InvalidToken('malformed');
  // the spec's 15 minutes bound every token, not only the ones we mean to issue: a longer-lived
  // one (a bug, a misused key) would also outlast the revocation list, which is kept that long
  if (exp - iat > ACCESS_TOKEN_LIFETIME_SECONDS) throw new InvalidToken('lifetime_too_long');
  return {
    iss, aud, sub, iat, nbf, exp, jti, org, plan, role: role as Role, token_use: use,
    ...(scope !== undefined ? { scope: scope as string } : {}),
    ...(sid !== undefined ? { sid: sid as string } : {}),
  };
}

/** What the JWKS endpoint serves: current and previous public keys. */
export function jwks(ring: SigningKeyRing): { keys: PublicSigningJwk[] } {
  return ring.jwks();
}
