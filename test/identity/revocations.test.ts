import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../commands/shared/actor.ts';
import { ApiKeyLookup } from '../../src/modules/identity/api-key-lookup.ts';
import { parseRevocationNotice, revocationNotices } from '../../projections/shared/revocation-notice.ts';
import { REVOCATION_RETENTION_MS, Revocations } from '../../src/modules/identity/revocations.ts';

/** A clock the test moves by hand. */
const clockAt = (iso: string) => {
  let now = Date.parse(iso);
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
};

/** Read models that answer the key lookup from a map the test changes, counting the queries. */
function fakeReadModels(keys: Map<string, { id: string; active: boolean }>) {
  const state = { queries: 0, gate: null as Promise<void> | null };
  const db = {
    async query(_sql: string, params: unknown[]) {
      state.queries++;
      const key = keys.get(params[0] as string);
      const row = key?.active ? [{ id: key.id, organisation_id: 'o1', plan: 'Solo Free', expires_at: null }] : [];
      if (state.gate) await state.gate;
      return row;
    },
  } as unknown as DataSource;
  return { db, state };
}

const user = (sessionId: string): Actor => ({ type: 'user', id: 'u1', organisationId: 'o1', role: 'admin', sessionId });
const client = (clientId: string): Actor => ({ type: 'oauth_client', id: clientId, organisationId: 'o1', role: 'admin' });

describe('revocation list', () => {
  const at = '2026-11-23T12:00:00.000Z';

  it('refuses the tokens of a revoked session or client, and nothing else', () => {
    const clock = clockAt(at);
    const revocations = new Revocations({ readModels: fakeReadModels(new Map()).db, clock, apiKeys: new ApiKeyLookup({ readModels: fakeReadModels(new Map()).db, clock }) });
    revocations.learn({ kind: 'session', id: 'f1', revoked_at: at });
    revocations.learn({ kind: 'oauth_client', id: 'oc_1', revoked_at: at });
    expect(revocations.refuses(user('f1'))).to.equal(true);
    expect(revocations.refuses(user('f2'))).to.equal(false);
    expect(revocations.refuses(client('oc_1'))).to.equal(true);
    expect(revocations.refuses(client('oc_2'))).to.equal(false);
    // a user whose id happens to be a revoked client id, an API key: not concerned
    expect(revocations.refuses({ type: 'user', id: 'oc_1', organisationId: 'o1', role: 'admin', sessionId: 'f9' })).to.equal(false);
    expect(revocations.refuses({ type: 'api_key', id: 'oc_1', organisationId: 'o1', role: 'admin' })).to.equal(false);
  });

  it('remembers a revocation as long as a token issued before it can pass (900 s + 30 s slack + 60 s), then forgets it', () => {
    expect(REVOCATION_RETENTION_MS).to.equal(990_000);
    const clock = clockAt(at);
    const revocations = new Revocations({ readModels: fakeReadModels(new Map()).db, clock, apiKeys: new ApiKeyLookup({ readModels: fakeReadModels(new Map()).db, clock }) });
    revocations.learn({ kind: 'session', id: 'f1', revoked_at: at });
    clock.advance(REVOCATION_RETENTION_MS - 1);
    expect(revocations.refuses(user('f1'))).to.equal(true);
    clock.advance(1);
    expect(revocations.refuses(user('f1'))).to.equal(false);
    // a notice replayed by a rebuild, of a revocation long past, adds nothing
    revocations.learn({ kind: 'oauth_client', id: 'oc_old', revoked_at: '2026-01-01T00:00:00.000Z' });
    expect(revocations.knows('oauth_client', 'oc_old')).to.equal(false);
  });

  it('learns from the events it has just written: a revoked client, an ended session, a revoked key', () => {
    const notices = revocationNotices([
      { type: 'OAuthClientRevoked', data: { client_id: 'oc_1', organisation_id: 'o1', revoked_at: at, revoked_by: 'u1' } },
      { type: 'RefreshFamilyRevoked', data: { family_id: 'f1', user_id: 'u1', organisation_id: 'o1', reason: 'logout', revoked_at: at } },
      { type: 'RefreshTokenRotated', data: { family_id: 'f1' } },
      { type: 'ApiKeyRevoked', data: { api_key_id: 'k1', revoked_at: at } },
    ]);
    expect(notices).to.deep.equal([
      { kind: 'oauth_client', id: 'oc_1', revoked_at: at },
      { kind: 'session', id: 'f1', revoked_at: at },
      { kind: 'api_key', id: 'k1', revoked_at: at },
    ]);
  });

  it('reads a notice from its payload and ignores anything else', () => {
    expect(parseRevocationNotice(JSON.stringify({ kind: 'session', id: 'f1', revoked_at: at }))).to.deep.equal({ kind: 'session', id: 'f1', revoked_at: at });
    for (const payload of [undefined, '', 'nonsense', 'null', '{"kind":"user","id":"x","revoked_at":"2026-11-23T12:00:00Z"}', '{"kind":"session","id":1,"revoked_at":"2026-11-23T12:00:00Z"}', '{"kind":"session","id":"f1","revoked_at":"yesterday"}']) {
      expect(parseRevocationNotice(payload), String(payload)).to.equal(null);
    }
  });
});

describe('API-key lookup cache', () => {
  const at = '2026-11-23T12:00:00.000Z';

  it('a revocation notice makes the next request look the key up again, however young the cached entry', async () => {
    const keys = new Map([['h1', { id: 'k1', active: true }]]);
    const { db, state } = fakeReadModels(keys);
    const clock = clockAt(at);
    const apiKeys = new ApiKeyLookup({ readModels: db, clock, notified: true });
    const revocations = new Revocations({ readModels: db, clock, apiKeys });
    expect((await apiKeys.find('h1'))?.id).to.equal('k1');
    expect(apiKeys.holds('k1')).to.equal(true);
    keys.set('h1', { id: 'k1', active: false });
    expect((await apiKeys.find('h1'))?.id, 'cached').to.equal('k1');
    revocations.learn({ kind: 'api_key', id: 'k1', revoked_at: at });
    expect(apiKeys.holds('k1')).to.equal(false);
    expect(await apiKeys.find('h1')).to.equal(null);
    expect(state.queries).to.equal(2);
  });

  it('a lookup in flight when the key is revoked is answered but not cached', async () => {
    const keys = new Map([['h1', { id: 'k1', active: true }]]);
    const { db, state } = fakeReadModels(keys);
    const apiKeys = new ApiKeyLookup({ readModels: db, clock: clockAt(at), notified: true });
    let open = () => {};
    state.gate = new Promise((resolve) => (open = resolve));
    const inFlight = apiKeys.find('h1'); // has read the key as active, not yet returned
    keys.set('h1', { id: 'k1', active: false });
    apiKeys.forget('k1');
    open();
    state.gate = null;
    expect((await inFlight)?.id).to.equal('k1');
    expect(apiKeys.holds('k1')).to.equal(false);
    expect(await apiKeys.find('h1')).to.equal(null);
  });

  it('trusts an entry 5 s while notices arrive, 1 s while they may not', async () => {
    const keys = new Map([['h1', { id: 'k1', active: true }]]);
    const { db, state } = fakeReadModels(keys);
    const clock = clockAt(at);
    const apiKeys = new ApiKeyLookup({ readModels: db, clock });
    await apiKeys.find('h1');
    clock.advance(999);
    await apiKeys.find('h1');
    expect(state.queries).to.equal(1);
    clock.advance(1);
    await apiKeys.find('h1');
    expect(state.queries).to.equal(2);
    apiKeys.setNotified(true);
    clock.advance(1_000);
    await apiKeys.find('h1');
    clock.advance(4_999);
    await apiKeys.find('h1');
    expect(state.queries).to.equal(3);
    clock.advance(1);
    await apiKeys.find('h1');
    expect(state.queries).to.equal(4);
    apiKeys.setNotified(false); // the listener is lost: what was cached is dropped at once
    expect(apiKeys.holds('k1')).to.equal(false);
  });
});
