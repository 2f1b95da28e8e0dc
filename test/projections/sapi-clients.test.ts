import { readFileSync } from 'node:fs';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { sapiClients } from '../../projections/sapi-clients/projector.ts';
import { inStream, projectorSpec } from '../support/projector-given.ts';

/** The stored fixtures (test/fixtures/events) of the SAPI-SK streams, as the service wrote them. */
function fixture(type: string): DomainEvent<string, object> {
  const f = JSON.parse(readFileSync(new URL(`../fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: object };
  return { type: f.type, data: f.data };
}
const CLIENT = 'sapi_client-sapi_6b5b76c3dce54d42ad186b48f72f1ee1';
const FAMILY = 'sapi_token_family-3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b';
const given = projectorSpec(sapiClients);

describe('projection: sapi-clients', function () {
  this.timeout(120_000);

  it('folds a client\'s management and lock-out into the row the gate and the admin routes read', () =>
    given(inStream(CLIENT, ...['SapiClientIssued', 'SapiClientAllowlistSet', 'SapiClientDisabled', 'SapiClientEnabled', 'SapiClientAuthenticationFailed', 'SapiClientLocked'].map(fixture)))
      .then(
        `SELECT client_id, enabled, allowlist::text, locked_until::text IS NOT NULL AS locked, secret_rotated_at IS NULL AS never_rotated FROM sapi_credentials`,
        [{ client_id: 'sapi_6b5b76c3dce54d42ad186b48f72f1ee1', enabled: true, allowlist: '{203.0.113.0/24,2001:db8::/32}', locked: true, never_rotated: true }],
      ));

  it('shows a lock recorded since issue 37 (SapiClientLockedOut) like one before it', () =>
    given(inStream(CLIENT, ...['SapiClientIssued', 'SapiClientAuthenticationFailed', 'SapiClientLockedOut'].map(fixture)))
      .then('SELECT locked_until FROM sapi_credentials', [{ locked_until: new Date('2026-11-24T15:21:00.000Z') }]));

  it('marks a family revoked, and a rotation ends every family started before it', () =>
    given(
      inStream(CLIENT, fixture('SapiClientIssued')),
      inStream(FAMILY, fixture('SapiTokenFamilyStarted'), fixture('SapiTokenRenewed')),
      inStream('sapi_token_family-00000000-0000-4000-8000-000000000001', {
        type: 'SapiTokenFamilyRevoked', data: { family_id: '00000000-0000-4000-8000-000000000001', client_id: 'sapi_6b5b76c3dce54d42ad186b48f72f1ee1', reason: 'revoked', revoked_at: '2026-11-24T15:40:00.000Z' },
      }),
      inStream(CLIENT, { type: 'SapiClientSecretRotated', data: { client_id: 'sapi_6b5b76c3dce54d42ad186b48f72f1ee1', secret_hash: 'c'.repeat(64), rotated_at: '2026-11-24T16:00:00.000Z' } }),
    ).then(
      'SELECT family_id, revoke_reason FROM sapi_token_families ORDER BY family_id',
      [
        { family_id: '00000000-0000-4000-8000-000000000001', revoke_reason: 'revoked' },
        { family_id: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b', revoke_reason: 'secret_rotated' },
      ],
    ));
});
