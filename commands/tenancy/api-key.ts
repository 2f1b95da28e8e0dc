import type { ApiKeyEvent, ApiKeyIssued } from '../../events/tenancy.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

export const API_KEY_SCOPES = ['invoices:read', 'invoices:write', 'invoices:send', 'validate:only'] as const;
export const DEFAULT_API_KEY_SCOPES = ['invoices:read', 'invoices:write', 'invoices:send'];
export const API_KEY_NAME_MAX = 100;

type ApiKeyCommand =
  | { type: 'IssueApiKey'; data: Omit<ApiKeyIssued['data'], 'expires_at'>; expires_in_days: number | null }
  | { type: 'UpdateApiKey'; api_key_id: string; organisation_id: string; name?: string; scopes?: string[]; at: string }
  | { type: 'RevokeApiKey'; api_key_id: string; organisation_id: string; at: string };

type ApiKeyState = { status: 'none' } | { status: 'active' | 'revoked'; organisation_id: string; name: string; scopes: string[] };

const DAY_MS = 86_400_000;

const notFound = () => new DomainError('api_key_not_found', 'API key not found');

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > API_KEY_NAME_MAX) throw new DomainError('invalid_name', `name must be 1-${API_KEY_NAME_MAX} characters`);
  return trimmed;
}

function checkScopes(scopes: string[]): string[] {
  const unknown = scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new DomainError('invalid_scope', `unknown scopes: ${unknown.join(', ')}`, { allowed: API_KEY_SCOPES });
  return [...new Set(scopes)];
}

/**
 * An organisation's API key. Scopes are recorded, not enforced (v1: every key has full access).
 * A key of another organisation is "not found", never "forbidden".
 */
export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiKey': {
        if (state.status !== 'none') throw new DomainError('api_key_exists', 'API key already exists');
        const days = command.expires_in_days;
        if (days !== null && (!Number.isInteger(days) || days < 1 || days > 365)) {
          throw new DomainError('invalid_expiry', 'expires_in_days must be 1-365 or null');
        }
        const expires_at = days === null ? null : new Date(Date.parse(command.data.issued_at) + days * DAY_MS).toISOString();
        const data = { ...command.data, name: checkName(command.data.name), scopes: checkScopes(command.data.scopes) };
        return [{ type: 'ApiKeyIssued', data: { ...data, expires_at } }];
      }
      case 'UpdateApiKey': {
        if (state.status === 'none' || state.organisation_id !== command.organisation_id) throw notFound();
        if (state.status === 'revoked') throw new DomainError('api_key_revoked', 'a revoked API key cannot be changed');
        const name = command.name === undefined ? undefined : checkName(command.name);
        const scopes = command.scopes === undefined ? undefined : checkScopes(command.scopes);
        const changed = (name !== undefined && name !== state.name) || (scopes !== undefined && scopes.join() !== state.scopes.join());
        if (!changed) return [];
        return [{ type: 'ApiKeyUpdated', data: { api_key_id: command.api_key_id, name: name ?? state.name, scopes: scopes ?? state.scopes, updated_at: command.at } }];
      }
      case 'RevokeApiKey':
        if (state.status === 'none' || state.organisation_id !== command.organisation_id) throw notFound();
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { api_key_id: command.api_key_id, revoked_at: command.at } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyIssued':
        return { status: 'active', organisation_id: event.data.organisation_id, name: event.data.name, scopes: event.data.scopes };
      case 'ApiKeyUpdated':
        return state.status === 'none' ? state : { ...state, name: event.data.name, scopes: event.data.scopes };
      case 'ApiKeyRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
    }
  },
};
