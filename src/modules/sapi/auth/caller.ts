import { SapiRefusal } from '../../../../commands/sapi/errors.ts';
import type { Headers } from '../../../platform/http/index.ts';
import type { SigningKeyRing } from '../../identity/index.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { verifySapiAccessToken, type SapiTokenClaims } from './tokens.ts';
import type { SapiActor, SapiCaller, SapiResolveCaller } from '../../../doors/sapi/route.ts';

/**
 * What a valid token alone cannot tell: whether its client is still enabled, whether the request
 * comes from an address the client allows, and whether its token family was revoked. Throws the
 * SAPI refusal (SAPI-DISABLED, SAPI-AUTH-IP, SAPI-AUTH-001).
 */
export interface SapiClientGate {
  admit(claims: SapiTokenClaims, ip: string): Promise<void>;
}

const bearer = (headers: Headers) => /^Bearer\s+(\S+)$/i.exec(headers.authorization?.trim() ?? '')?.[1] ?? null;

/**
 * Who calls /sapi: a Bearer SAPI access token (its own audience), nothing else. A native API key
 * (X-Api-Key or `Bearer svc_…`) or a native JWT is refused with SAPI-AUTH-001. Refusals are
 * returned, not thrown, so the rate limiter still counts the request per IP.
 */
export function sapiCallerResolver(deps: { ring(): Promise<SigningKeyRing>; clock: Clock; gate?: SapiClientGate }): SapiResolveCaller {
  return async ({ headers, ip }): Promise<SapiCaller> => {
    const anonymous: SapiCaller = { credential: 'none', actor: null, refusal: null, rateKey: `ip:${ip}`, plan: null };
    const refused = (message: string): SapiCaller => ({ ...anonymous, credential: 'bearer', refusal: new SapiRefusal('SAPI-AUTH-001', message, [{ field: 'Authorization', issue: 'invalid' }]) });
    if (headers['x-api-key']) return refused('the native API key is not used by SAPI-SK: send a SAPI access token');
    const token = bearer(headers);
    if (!token) return headers.authorization ? refused('Authorization must be "Bearer <access token>"') : anonymous;
    if (token.startsWith('svc_')) return refused('the native API key is not used by SAPI-SK: send a SAPI access token');
    let claims: SapiTokenClaims;
    try {
      claims = await verifySapiAccessToken(await deps.ring(), token, deps.clock.now());
    } catch {
      return refused('the access token is not valid or has expired');
    }
    try {
      await deps.gate?.admit(claims, ip);
    } catch (error) {
      if (error instanceof SapiRefusal) return { ...anonymous, credential: 'bearer', rateKey: `sapi:${claims.client_id}`, plan: claims.plan, refusal: error };
      throw error;
    }
    const actor: SapiActor = {
      type: 'sapi_client', clientId: claims.client_id, organisationId: claims.organisation_id, companyId: claims.company_id,
      participantId: claims.participant_id, scopes: claims.scopes, plan: claims.plan, familyId: claims.family_id, tokenId: claims.jti,
      expiresAt: new Date(claims.exp * 1000),
    };
    return { credential: 'bearer', actor, refusal: null, rateKey: `sapi:${claims.client_id}`, plan: claims.plan };
  };
}
