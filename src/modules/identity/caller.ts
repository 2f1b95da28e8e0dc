import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { sha256Hex } from './credential-secrets.ts';
import type { ApiKeyLookup } from './api-key-lookup.ts';
import { InvalidToken } from './invalid-token.ts';
import type { Revocations } from './revocations.ts';
import type { LastUsed } from './last-used.ts';
import type { InvalidCredentialGuard } from '../../platform/limits/invalid-credential-guard.ts';
import type { Clock } from '../../platform/ports/clock.ts';
import { TooManyRequests, type Headers } from '../../platform/http/index.ts';
import type { Caller, ResolveCaller } from '../../doors/native/route.ts';

/** A bearer token that is not an API key: a user's or an OAuth client's access token. */
type VerifyBearer = (token: string) => Promise<{ actor: Actor; plan: string | null }>;


/** The API key a request presents: `X-Api-Key`, or `Authorization: Bearer svc_...`. */
function presentedApiKey(headers: Headers): string | null {
  const header = headers['x-api-key']?.trim();
  if (header) return header;
  const bearer = bearerToken(headers);
  return bearer?.startsWith('svc_') ? bearer : null;
}

function bearerToken(headers: Headers): string | null {
  return /^Bearer\s+(\S+)$/i.exec(headers.authorization?.trim() ?? '')?.[1] ?? null;
}

/**
 * Who calls, by the spec's first-match order: the X-Api-Key header, then a Bearer `svc_` key (per
 * key), then a Bearer access token (per organisation, plan from its claim; refused once its session
 * or client is revoked), then nothing (per IP).
 * A refused credential is returned, not thrown: the rate limiter still counts the request (per
 * IP), and the route answers 401.
 */
export function callerResolver(deps: {
  apiKeys: ApiKeyLookup;
  lastUsed: LastUsed;
  clock: Clock;
  verifyBearer: VerifyBearer;
  /** sessions ended and OAuth clients revoked: their still-unexpired access tokens are refused */
  revocations: Pick<Revocations, 'refuses'>;
  /**
   * "Repeated invalid API keys from one IP give 429": asked when a key is not found. The lookup
   * comes first because the rate limiter already bounds how many an address can try (30/min).
   */
  guard: InvalidCredentialGuard;
}): ResolveCaller {
  return async ({ headers, ip }): Promise<Caller> => {
    const anonymous: Caller = { credential: 'none', actor: null, refusal: null, rateKey: `ip:${ip}`, plan: null };
    const key = presentedApiKey(headers);
    if (key) {
      const refused = (refusal: Error): Caller => ({ ...anonymous, credential: 'api_key', refusal });
      const found = await deps.apiKeys.find(sha256Hex(key));
      if (!found) {
        // only a bad key is judged by the address: a valid key behind the same NAT keeps working
        const { blocked, retryAfterSeconds } = await deps.guard.check(ip);
        if (blocked) return refused(new TooManyRequests(retryAfterSeconds, { limit: deps.guard.maxFailures, plan: null }));
        await deps.guard.failed(ip);
        return refused(new DomainError('invalid_api_key', 'the API key is unknown, revoked or expired'));
      }
      deps.lastUsed.used(found.id, deps.clock.now());
      const actor: Actor = { type: 'api_key', id: found.id, organisationId: found.organisation_id, role: 'admin' };
      return { credential: 'api_key', actor, refusal: null, rateKey: `key:${found.id}`, plan: found.plan };
    }
    const token = bearerToken(headers);
    if (token) {
      try {
        const { actor, plan } = await deps.verifyBearer(token);
        if (deps.revocations.refuses(actor)) throw new InvalidToken('revoked');
        return { credential: 'bearer', actor, refusal: null, rateKey: `org:${actor.organisationId}`, plan };
      } catch (error) {
        const refusal = error instanceof DomainError ? error : new DomainError('invalid_token', `the access token is not valid${error instanceof Error ? `: ${error.message}` : ''}`);
        return { ...anonymous, credential: 'bearer', refusal };
      }
    }
    if (headers.authorization) return { ...anonymous, refusal: new DomainError('invalid_token', 'Authorization must be "Bearer <token>"') };
    return anonymous;
  };
}
