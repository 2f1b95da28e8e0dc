import type { JWTPayload } from 'jose';
import { SAPI_SCOPES, type SapiScope } from '../../../../commands/sapi/scopes.ts';
import { InvalidToken } from '../../identity/index.ts';
import type { SigningKeyRing } from '../../identity/index.ts';

/** sapi-sk.md, Authentication rule 2. */
export const SAPI_ACCESS_TOKEN_SECONDS = 900;
export const SAPI_REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** Its own audience: a SAPI token is refused by /api/v1 and a native token by /sapi. */
export const SAPI_AUDIENCE = 'sk-einvoicing:sapi';
const TYP = 'JWT';

/** Everything a /sapi request needs to know of its caller, carried by the access token. */
interface SapiTokenSubject {
  client_id: string;
  organisation_id: string;
  company_id: string;
  /** the participant the credentials are locked to */
  participant_id: string;
  scopes: SapiScope[];
  /** the organisation's plan when the token was issued: the rate limit reads it (a plan change applies with the next token) */
  plan: string;
  /** the token pair's family: renewals keep it, a revocation ends it */
  family_id: string;
}

export interface SapiTokenClaims extends SapiTokenSubject {
  jti: string;
  iat: number;
  exp: number;
}

export function issueSapiAccessToken(ring: SigningKeyRing, subject: SapiTokenSubject, now?: Date): Promise<string> {
  return ring.sign(
    {
      sub: subject.client_id, aud: SAPI_AUDIENCE, org: subject.organisation_id, company: subject.company_id,
      participant: subject.participant_id, scope: subject.scopes.join(' '), plan: subject.plan, sid: subject.family_id,
    },
    SAPI_ACCESS_TOKEN_SECONDS,
    { typ: TYP, now },
  );
}

/** The claims of a valid SAPI access token, or InvalidToken. */
export async function verifySapiAccessToken(ring: SigningKeyRing, token: string, now?: Date): Promise<SapiTokenClaims> {
  return sapiClaims(await ring.verify(token, { audience: SAPI_AUDIENCE, typ: TYP, now }));
}

const isScope = (s: string): s is SapiScope => (SAPI_SCOPES as readonly string[]).includes(s);

/** Signed by us is not enough: a claim set of the wrong shape is refused, never half-trusted. */
function sapiClaims(payload: JWTPayload): SapiTokenClaims {
  const { aud, sub, iat, exp, jti, org, company, participant, scope, plan, sid } = payload;
  const strings = [sub, jti, org, company, participant, scope, plan, sid];
  if (!strings.every((s) => typeof s === 'string') || typeof iat !== 'number' || typeof exp !== 'number') throw new InvalidToken('malformed');
  // exactly our audience, as the native door requires: jose accepts an array that merely contains it,
  // and a token for [sapi, user] would pass both doors (found by the jwt campaign, issue 21)
  if (aud !== SAPI_AUDIENCE) throw new InvalidToken('wrong_audience');
  if (exp - iat > SAPI_ACCESS_TOKEN_SECONDS) throw new InvalidToken('lifetime_too_long');
  const scopes = (scope as string).split(' ').filter((s) => s !== '');
  if (!scopes.every(isScope)) throw new InvalidToken('malformed');
  return {
    client_id: sub as string, organisation_id: org as string, company_id: company as string, participant_id: participant as string,
    scopes, plan: plan as string, family_id: sid as string, jti: jti as string, iat, exp,
  };
}
