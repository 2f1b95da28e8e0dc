import type { DomainEvent } from './event.ts';
import type { SapiClientIssued } from './tenancy.ts';

/*
 * SAPI-SK credentials after their issue (SapiClientIssued, events/tenancy.ts), on the same stream
 * `sapi_client-{client_id}`, and the token families minted from them on `sapi_token_family-{family_id}`.
 * Secrets and refresh tokens appear only as SHA-256 (hex).
 */

/** A new secret: the old one stops working, and every token family issued before ends (docs/sapi.md). */
export type SapiClientSecretRotated = DomainEvent<'SapiClientSecretRotated', { client_id: string; secret_hash: string; rotated_at: string }>;
/** The client's IP allowlist, whole (CIDRs in canonical form; empty = any address). */
export type SapiClientAllowlistSet = DomainEvent<'SapiClientAllowlistSet', { client_id: string; cidrs: string[]; set_at: string }>;
export type SapiClientDisabled = DomainEvent<'SapiClientDisabled', { client_id: string; disabled_at: string }>;
export type SapiClientEnabled = DomainEvent<'SapiClientEnabled', { client_id: string; enabled_at: string }>;
/** A wrong client_secret for this client at POST /sapi/auth/token: what the lock-out counts. */
export type SapiClientAuthenticationFailed = DomainEvent<'SapiClientAuthenticationFailed', { client_id: string; ip: string; failed_at: string }>;
/**
 * Too many failures in the window: the client is refused until `locked_until`, correct secret
 * included. Written before issue 37; locks since are SapiClientLockedOut, which says who is to be
 * told and from where the failures came. Both are read alike.
 */
export type SapiClientLocked = DomainEvent<'SapiClientLocked', { client_id: string; failures: number; locked_at: string; locked_until: string }>;
/**
 * A lock as SapiClientLocked, with what its company is shown (the organisation's security log, the
 * `sapi_client.locked_out` webhook): the client's organisation and company, and `ips`, every address
 * whose failures were counted, each once, in the order they first failed.
 */
export type SapiClientLockedOut = DomainEvent<
  'SapiClientLockedOut',
  { client_id: string; organisation_id: string; company_id: string; failures: number; ips: string[]; locked_at: string; locked_until: string }
>;

export type SapiClientStreamEvent =
  | SapiClientIssued
  | SapiClientSecretRotated
  | SapiClientAllowlistSet
  | SapiClientDisabled
  | SapiClientEnabled
  | SapiClientAuthenticationFailed
  | SapiClientLocked
  | SapiClientLockedOut;

/** A token pair issued at POST /sapi/auth/token: renewals keep the family, a revocation ends it. */
export type SapiTokenFamilyStarted = DomainEvent<
  'SapiTokenFamilyStarted',
  {
    family_id: string;
    client_id: string;
    organisation_id: string;
    scopes: string[];
    /** SHA-256 (hex) of the refresh token */
    refresh_hash: string;
    refresh_expires_at: string;
    started_at: string;
  }
>;
/** POST /sapi/auth/renew: a new refresh token replaces the current one (which is then used up). */
export type SapiTokenRenewed = DomainEvent<'SapiTokenRenewed', { family_id: string; client_id: string; refresh_hash: string; refresh_expires_at: string; renewed_at: string }>;
export type SapiTokenRevocationReason = 'revoked' | 'refresh_token_reuse';
/** The family's access and refresh tokens are refused from now on. */
export type SapiTokenFamilyRevoked = DomainEvent<'SapiTokenFamilyRevoked', { family_id: string; client_id: string; reason: SapiTokenRevocationReason; revoked_at: string }>;

export type SapiTokenFamilyEvent = SapiTokenFamilyStarted | SapiTokenRenewed | SapiTokenFamilyRevoked;

export const sapiTokenFamilyStream = (familyId: string) => `sapi_token_family-${familyId}`;
