import type { OAuthClientEvent } from '../../events/identity.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

export const OAUTH_CLIENT_SCOPES = ['invoices:read', 'invoices:write', 'invoices:send', 'validate:only'] as const;
/** The spec's default when the create body omits scopes. */
const DEFAULT_OAUTH_CLIENT_SCOPES = 'invoices:read,invoices:write,invoices:send';
export const OAUTH_CLIENT_NAME_MAX = 255;

export type OAuthClientCommand =
  | {
      type: 'IssueOAuthClient';
      client_id: string;
      organisation_id: string;
      name: string;
      /** comma-separated as the spec's body sends it; undefined or null takes the default */
      scopes?: string | null;
      /** SHA-256 (hex) of the secret shown once */
      secret_hash: string;
      at: string;
      issued_by: string;
    }
  | { type: 'RevokeOAuthClient'; client_id: string; organisation_id: string; at: string; revoked_by: string };

type OAuthClientState =
  | { status: 'none' }
  | { status: 'active' | 'revoked'; organisation_id: string };

/** Parses the comma-separated scopes: trimmed, de-duplicated, each one the spec allows. */
function oauthClientScopes(scopes: string | null | undefined): string[] {
  const parsed = [...new Set((scopes ?? DEFAULT_OAUTH_CLIENT_SCOPES).split(',').map((s) => s.trim()).filter(Boolean))];
  if (parsed.length === 0) throw new DomainError('scopes_required', 'at least one scope is required');
  const invalid = parsed.filter((s) => !(OAUTH_CLIENT_SCOPES as readonly string[]).includes(s));
  if (invalid.length > 0) {
    throw new DomainError('invalid_scope', `unknown scopes: ${invalid.join(', ')}`, { invalid, allowed: [...OAUTH_CLIENT_SCOPES] });
  }
  return parsed;
}

function clientName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new DomainError('name_required', 'the client name is required');
  if ([...trimmed].length > OAUTH_CLIENT_NAME_MAX) {
    throw new DomainError('name_too_long', `the client name is longer than ${OAUTH_CLIENT_NAME_MAX} characters`, { max_length: OAUTH_CLIENT_NAME_MAX });
  }
  return trimmed;
}

const notFound = () => new DomainError('oauth_client_not_found', 'OAuth client not found');

export const oauthClientDecider: Decider<OAuthClientCommand, OAuthClientEvent, OAuthClientState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'IssueOAuthClient': {
        if (state.status !== 'none') throw new DomainError('oauth_client_exists', 'OAuth client already exists');
        // a plaintext secret here would end up in the event log forever
        if (!/^[0-9a-f]{64}$/.test(command.secret_hash)) throw new Error('secret_hash must be a SHA-256 hex digest');
        const { client_id, organisation_id, secret_hash, issued_by } = command;
        const name = clientName(command.name);
        const scopes = oauthClientScopes(command.scopes);
        return [{ type: 'OAuthClientIssued', data: { client_id, organisation_id, name, scopes, secret_hash, issued_at: command.at, issued_by } }];
      }
      case 'RevokeOAuthClient':
        // another organisation's client is as absent as a missing one (spec rule 9)
        if (state.status === 'none' || state.organisation_id !== command.organisation_id) throw notFound();
        if (state.status === 'revoked') return [];
        return [{ type: 'OAuthClientRevoked', data: { client_id: command.client_id, organisation_id: command.organisation_id, revoked_at: command.at, revoked_by: command.revoked_by } }];
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'OAuthClientIssued':
        return { status: 'active', organisation_id: event.data.organisation_id };
      case 'OAuthClientRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
    }
  },
};
