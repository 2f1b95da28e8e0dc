import type { DataSource } from 'typeorm';
import type { Actor } from '../../commands/shared/actor.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { findActiveApiKey } from '../../projections/api-keys/queries.ts';
import { sha256Hex } from '../application/credentials.ts';
import type { Clock } from '../ports/clock.ts';

type Headers = Record<string, string | undefined>;

/** The API key a request presents: `X-Api-Key`, or `Authorization: Bearer svc_...`. */
export function presentedApiKey(headers: Headers): string | null {
  const header = headers['x-api-key']?.trim();
  if (header) return header;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization?.trim() ?? '')?.[1];
  return bearer?.startsWith('svc_') ? bearer : null;
}

/**
 * Resolves the caller. An API key acts as an admin of its own organisation. Only the key's
 * SHA-256 is looked up, so the plaintext is never stored or compared. JWT sign-in is not built
 * yet: a non-key bearer token is refused as invalid.
 */
export function authenticator(readModels: DataSource, clock: Clock) {
  return async (headers: Headers): Promise<Actor | null> => {
    const key = presentedApiKey(headers);
    if (!key) {
      if (headers.authorization) throw new DomainError('invalid_token', 401, 'the bearer token is not valid');
      return null;
    }
    const found = await findActiveApiKey(readModels, sha256Hex(key), clock.now());
    if (!found) throw new DomainError('invalid_api_key', 401, 'the API key is unknown, revoked or expired');
    return { type: 'api_key', id: found.id, organisationId: found.organisation_id, role: 'admin' };
  };
}
