import type { EntityManager } from 'typeorm';

/**
 * The Postgres channel on which a revocation is announced to every instance. The api-keys and
 * identity projectors send it from the transaction that marks the credential revoked in the read
 * model, so Postgres delivers it when, and only when, that change commits: an instance that hears
 * it and looks again finds the credential revoked.
 */
export const REVOCATION_CHANNEL = 'credential_revoked';

/** What was revoked: an API key (by id), an OAuth client (client_id) or a user session (refresh family id). */
type RevocationKind = 'api_key' | 'oauth_client' | 'session';

export interface RevocationNotice {
  kind: RevocationKind;
  id: string;
  /** ISO time of the revocation: a notice is kept only as long as a token issued before it can live */
  revoked_at: string;
}

const KINDS: readonly string[] = ['api_key', 'oauth_client', 'session'];

/** Announces a revocation from inside a projector's transaction (delivered on commit). */
export async function announceRevocation(tx: EntityManager, notice: RevocationNotice): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [REVOCATION_CHANNEL, JSON.stringify(notice)]);
}

/** A notice as heard, or null when the payload is not one (never trusted blindly: it is only a hint to forget). */
export function parseRevocationNotice(payload: string | undefined): RevocationNotice | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<RevocationNotice> | null;
    if (!value || typeof value.id !== 'string' || typeof value.revoked_at !== 'string' || !KINDS.includes(value.kind as string)) return null;
    if (Number.isNaN(Date.parse(value.revoked_at))) return null;
    return { kind: value.kind as RevocationKind, id: value.id, revoked_at: value.revoked_at };
  } catch {
    return null;
  }
}

/** The revocations among events this process has just written (it learns them before any notice comes back). */
export function revocationNotices(events: readonly { type: string; data: object }[]): RevocationNotice[] {
  return events.flatMap((event): RevocationNotice[] => {
    const d = event.data as Record<string, unknown>;
    if (event.type === 'OAuthClientRevoked') return [{ kind: 'oauth_client', id: String(d.client_id), revoked_at: String(d.revoked_at) }];
    if (event.type === 'RefreshFamilyRevoked') return [{ kind: 'session', id: String(d.family_id), revoked_at: String(d.revoked_at) }];
    if (event.type === 'ApiKeyRevoked') return [{ kind: 'api_key', id: String(d.api_key_id), revoked_at: String(d.revoked_at) }];
    return [];
  });
}
