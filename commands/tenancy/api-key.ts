import type { ApiKeyEvent, ApiKeyIssued } from '../../events/tenancy.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

export const API_KEY_SCOPES = ['invoices:read', 'invoices:write', 'invoices:send', 'validate:only'] as const;
export const DEFAULT_API_KEY_SCOPES = ['invoices:read', 'invoices:write', 'invoices:send'];

export type ApiKeyCommand =
  | { type: 'IssueApiKey'; data: Omit<ApiKeyIssued['data'], 'expires_at'>; expires_in_days: number | null }
  | { type: 'RevokeApiKey'; api_key_id: string; at: string };

export type ApiKeyState = { status: 'none' | 'active' | 'revoked' };

const DAY_MS = 86_400_000;

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiKey': {
        if (state.status !== 'none') throw new DomainError('api_key_exists', 409, 'API key already exists');
        const days = command.expires_in_days;
        if (days !== null && (!Number.isInteger(days) || days < 1 || days > 365)) {
          throw new DomainError('invalid_expiry', 422, 'expires_in_days must be 1-365 or null');
        }
        const expires_at = days === null ? null : new Date(Date.parse(command.data.issued_at) + days * DAY_MS).toISOString();
        return [{ type: 'ApiKeyIssued', data: { ...command.data, expires_at } }];
      }
      case 'RevokeApiKey':
        if (state.status === 'none') throw new DomainError('api_key_not_found', 404, 'API key not found');
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { api_key_id: command.api_key_id, revoked_at: command.at } }];
    }
  },
  evolve: (_state, event) => ({ status: event.type === 'ApiKeyIssued' ? 'active' : 'revoked' }),
};
