import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/domain-error.ts';

/**
 * Webhook management is for API keys only (spec, Authentication rule 6): a signed-in user's or an
 * OAuth client's token is a valid credential of the wrong kind, answered like its mirror image on
 * /auth/* (`jwt_required`): 401 `api_key_required`.
 */
export function requireApiKey(actor: Pick<Actor, 'type'>): void {
  if (actor.type !== 'api_key') {
    throw new DomainError('api_key_required', 'webhook management takes an API key (X-Api-Key), not a user or OAuth token');
  }
}
