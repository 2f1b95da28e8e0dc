import { disabledClient, outsideAllowlist } from '../../../../commands/sapi/client.ts';
import { allowedAddress } from '../../../../commands/sapi/client-allowlist.ts';
import { SapiRefusal } from '../../../../commands/sapi/errors.ts';
import { findSapiGate } from '../../../../projections/sapi-clients/queries.ts';
import type { SapiGateRow } from '../../../../projections/sapi-clients/rows.ts';
import type { Core } from '../../../platform/core.ts';
import type { SapiClientGate } from './caller.ts';

const refused = (message: string) => new SapiRefusal('SAPI-AUTH-001', message, [{ field: 'Authorization', issue: 'invalid' }]);

/** How long a looked-up row is trusted on the embedded store (where every change is this process's own, and forgets it at once). */
const CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

/** The gate, and what the routes that change a client or a family tell it. */
export interface SapiGate extends SapiClientGate {
  /** the client (or one of its families) changed: look it up again from the next request on */
  forget(clientId: string): void;
}

/**
 * What every /sapi request checks beyond the token's signature: the family not revoked and not
 * opened before the last secret rotation (SAPI-AUTH-001), the caller's address in the allowlist
 * (SAPI-AUTH-IP), the client enabled (SAPI-DISABLED). One query, the client and its token family
 * by primary key. The read model is current for these: every route that changes them answers
 * only once it shows the change.
 *
 * On Postgres every request asks (another instance may have changed the client a moment ago). On
 * the embedded PGlite only this process can write (one process opens its files), so the rows are
 * kept for a few seconds and forgotten the moment this process changes their client: PGlite runs
 * one query at a time, and the gate's would otherwise be most of a small request's cost.
 */
export function sapiClientGate(deps: Pick<Core, 'readModels' | 'clock'>): SapiGate {
  const cache = new Map<string, { row: SapiGateRow | null; until: number }>();
  /** bumped by every forget: a lookup in flight meanwhile may have read the row before the change, and is not kept */
  let generation = 0;
  let embedded: Promise<boolean> | null = null;
  const isEmbedded = () =>
    (embedded ??= (deps.readModels.query('SELECT version() AS version') as Promise<{ version: string }[]>).then(([row]) => /PGlite/i.test(row?.version ?? ''), () => false));

  async function lookup(clientId: string, familyId: string): Promise<SapiGateRow | null> {
    if (!(await isEmbedded())) return findSapiGate(deps.readModels, clientId, familyId);
    const key = `${clientId}\u0000${familyId}`;
    const now = deps.clock.now().getTime();
    const cached = cache.get(key);
    if (cached && cached.until > now) return cached.row;
    const started = generation;
    const row = await findSapiGate(deps.readModels, clientId, familyId);
    if (started !== generation) return row;
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { row, until: now + CACHE_MS });
    return row;
  }

  return {
    async admit(claims, ip) {
      const row = await lookup(claims.client_id, claims.family_id);
      if (!row) throw refused('the access token\'s client does not exist');
      if (row.family_revoked_at !== null) throw refused('the access token was revoked');
      // a token issued in an earlier second than the rotation is from before it (families started
      // by /auth/token are ended exactly, by the projector)
      if (row.secret_rotated_at !== null && claims.iat < Math.floor(new Date(row.secret_rotated_at).getTime() / 1000)) {
        throw refused('the access token was issued before the client secret was rotated');
      }
      if (!allowedAddress(row.allowlist, ip)) throw outsideAllowlist(ip);
      if (!row.enabled) throw disabledClient();
    },
    forget(clientId) {
      generation++;
      for (const key of cache.keys()) if (key.startsWith(`${clientId}\u0000`)) cache.delete(key);
    },
  };
}
