import type { DataSource } from 'typeorm';
import type { Actor } from '../../../commands/shared/actor.ts';
import { recentRevocations } from '../../../projections/identity/queries.ts';
import type { Clock } from '../../platform/ports/clock.ts';
import type { ApiKeyLookup } from './api-key-lookup.ts';
import { revocationNotices, type RevocationNotice } from '../../../projections/shared/revocation-notice.ts';
import { CLOCK_TOLERANCE_SECONDS } from './signing-keys.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS } from './tokens.ts';

/**
 * How long a revoked session or client is remembered: an access token issued before the
 * revocation lives at most its 900 s (longer ones are refused) plus the clock slack, and a minute
 * more covers instances whose clocks disagree. After that no token of it can still pass.
 */
export const REVOCATION_RETENTION_MS = (ACCESS_TOKEN_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS + 60) * 1000;

/**
 * This instance's revocation list: the sessions (refresh families) and OAuth clients whose access
 * tokens are refused although signed and unexpired, and the API-key cache to purge. It learns from
 * the revoking code in this process at once, from the other instances through the notices
 * (revocation-feed.ts), and from the read models when it starts or reconnects.
 */
export class Revocations {
  private readonly sessions = new Map<string, number>();
  private readonly clients = new Map<string, number>();

  constructor(private readonly deps: { readModels: DataSource; clock: Clock; apiKeys: ApiKeyLookup }) {}

  learn(notice: RevocationNotice): void {
    const now = this.deps.clock.now().getTime();
    const until = Date.parse(notice.revoked_at) + REVOCATION_RETENTION_MS;
    // older than any token it could stop (a rebuild replays every revocation ever made)
    if (until <= now) return;
    if (notice.kind === 'api_key') this.deps.apiKeys.forget(notice.id);
    else this.list(notice.kind).set(notice.id, until);
    this.prune(now);
  }

  /** The revocations among events this process has just appended: refused here at once. */
  learnFrom(events: readonly { type: string; data: object }[]): void {
    for (const notice of revocationNotices(events)) this.learn(notice);
  }

  /** Whether this actor's access token belongs to a revoked session or client. */
  refuses(actor: Actor): boolean {
    if (actor.type === 'user' && actor.sessionId) return this.holds(this.sessions, actor.sessionId);
    if (actor.type === 'oauth_client') return this.holds(this.clients, actor.id);
    return false;
  }

  /** Whether this instance refuses the tokens of a session or client now (tests wait on it before they ask). */
  knows(kind: 'session' | 'oauth_client', id: string): boolean {
    return this.holds(this.list(kind), id);
  }

  /** Everything revoked within the retention window, from the read models; the key cache starts over. */
  async reload(): Promise<void> {
    const since = new Date(this.deps.clock.now().getTime() - REVOCATION_RETENTION_MS);
    this.deps.apiKeys.clear();
    for (const row of await recentRevocations(this.deps.readModels, since)) this.learn({ kind: row.kind, id: row.id, revoked_at: new Date(row.revoked_at).toISOString() });
  }

  private list(kind: 'session' | 'oauth_client'): Map<string, number> {
    return kind === 'session' ? this.sessions : this.clients;
  }

  private holds(list: Map<string, number>, id: string): boolean {
    const until = list.get(id);
    return until !== undefined && until > this.deps.clock.now().getTime();
  }

  private prune(now: number): void {
    for (const list of [this.sessions, this.clients]) for (const [id, until] of list) if (until <= now) list.delete(id);
  }
}
