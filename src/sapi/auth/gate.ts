import { disabledClient, outsideAllowlist } from '../../../commands/sapi/client.ts';
import { allowedAddress } from '../../../commands/sapi/client-allowlist.ts';
import { SapiRefusal } from '../../../commands/sapi/errors.ts';
import { findSapiGate } from '../../../projections/sapi-clients/queries.ts';
import type { Core } from '../../core.ts';
import type { SapiClientGate } from '../http/caller.ts';

const refused = (message: string) => new SapiRefusal('SAPI-AUTH-001', message, [{ field: 'Authorization', issue: 'invalid' }]);

/**
 * What every /sapi request checks beyond the token's signature, with one indexed query (the client
 * and its token family by primary key): the family not revoked and not opened before the last
 * secret rotation (SAPI-AUTH-001), the caller's address in the allowlist (SAPI-AUTH-IP), the
 * client enabled (SAPI-DISABLED). The read model is current for these: every route that changes
 * them answers only once it shows the change.
 */
export function sapiClientGate(deps: Pick<Core, 'readModels'>): SapiClientGate {
  return {
    async admit(claims, ip) {
      const row = await findSapiGate(deps.readModels, claims.client_id, claims.family_id);
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
  };
}
