import { expect } from 'chai';
import type { WebhookEndpointRegistered, WebhookEvent } from '../../events/webhooks.ts';
import { fold } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { specFor } from '../shared/given.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { requireApiKey } from './access.ts';
import { MAX_ACTIVE_ENDPOINTS, ROTATION_OVERLAP_MS, subscribers, webhookDecider, type WebhookCommand } from './decider.ts';
import { DEFAULT_EVENT_TYPES, resolveEventTypes } from './event-types.ts';
import { checkResend, eventDeliveryState } from './resend.ts';

const AT = '2026-11-24T10:00:00.000Z';
const given = specFor(webhookDecider);

const register = (changes: Partial<Extract<WebhookCommand, { type: 'RegisterEndpoint' }>> = {}): WebhookCommand => ({
  type: 'RegisterEndpoint', endpoint_id: 'w1', organisation_id: 'o1', workspace_id: null, url: 'https://hooks.example.com/in', events: null,
  description: 'ERP', target: { allowed: true }, secret_ciphertext: 'v1.sealed', actor_id: 'k1', at: AT, ...changes,
});
const registered = (changes: Partial<WebhookEndpointRegistered['data']> = {}): WebhookEndpointRegistered => ({
  type: 'WebhookEndpointRegistered',
  data: {
    endpoint_id: 'w1', organisation_id: 'o1', workspace_id: null, url: 'https://hooks.example.com/in', events: [...DEFAULT_EVENT_TYPES],
    description: 'ERP', secret_ciphertext: 'v1.sealed', registered_by: 'k1', registered_at: AT, ...changes,
  },
});
const deactivated = (id: string): WebhookEvent => ({ type: 'WebhookEndpointDeactivated', data: { endpoint_id: id, deactivated_by: 'k1', deactivated_at: AT } });
const endpoints = (n: number) => Array.from({ length: n }, (_, i) => registered({ endpoint_id: `e${i}` }));

describe('webhook endpoints (the webhooks-{organisation} stream)', () => {
  describe('register', () => {
    it('stores the default list, resolved, when events is left out', () => {
      given([]).when(register()).then([registered()]);
    });

    it('stores the list asked for, trimmed and without repeats, including types that are never emitted', () => {
      given([]).when(register({ events: 'invoice.created, client.linked,invoice.created' }))
        .then([registered({ events: ['invoice.created', 'client.linked'] })]);
    });

    it('takes events as an array as well (the README\'s example), each entry one type', () => {
      given([]).when(register({ events: ['invoice.created', 'client.linked'] })).then([registered({ events: ['invoice.created', 'client.linked'] })]);
      given([]).when(register({ events: [] })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.events']));
    });

    it('refuses an events list with empty or malformed entries (422 on body.events)', () => {
      for (const events of ['', 'invoice.created,,invoice.queued', 'Invoice Created']) {
        given([]).when(register({ events })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.events']));
      }
    });

    it('refuses a URL that is not http(s), carries credentials or is too long', () => {
      for (const url of ['ftp://hooks.example.com/', 'https://user:pw@hooks.example.com/', `https://hooks.example.com/${'a'.repeat(2048)}`, 'not a url']) {
        given([]).when(register({ url })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.url']));
      }
    });

    it('refuses a URL whose host is not public with 422 webhook_url_not_allowed, saying why in the guard\'s general words', () => {
      const target = { allowed: false as const, reason: 'loopback', message: 'the host resolves to a loopback address' };
      const refused = given([]).when(register({ target })).thenThrows('webhook_url_not_allowed', { reason: 'loopback' });
      expect(refused.message).to.equal('the webhook URL is not allowed: the host resolves to a loopback address; it must resolve to public internet addresses only');
    });

    it(`allows ${MAX_ACTIVE_ENDPOINTS} active endpoints and refuses the next with 409 webhook_limit_reached`, () => {
      given(endpoints(MAX_ACTIVE_ENDPOINTS - 1)).when(register({ endpoint_id: 'w10' })).then([registered({ endpoint_id: 'w10' })]);
      given(endpoints(MAX_ACTIVE_ENDPOINTS)).when(register({ endpoint_id: 'w11' })).thenThrows('webhook_limit_reached', { limit: 10, active: 10 });
    });

    it('counts only active endpoints: a deactivated one frees its place', () => {
      given([...endpoints(MAX_ACTIVE_ENDPOINTS), deactivated('e3')]).when(register({ endpoint_id: 'w11' })).then([registered({ endpoint_id: 'w11' })]);
    });

    it('registers nothing for the same endpoint id again (a resumed request)', () => {
      given([registered()]).when(register()).thenNothingHappened();
    });
  });

  describe('deactivate, rotate and test', () => {
    const deactivate: WebhookCommand = { type: 'DeactivateEndpoint', endpoint_id: 'w1', actor_id: 'k1', at: AT };
    const rotate: WebhookCommand = { type: 'RotateSecret', endpoint_id: 'w1', secret_ciphertext: 'v1.new', actor_id: 'k1', at: AT };
    const ping: WebhookCommand = { type: 'RequestTestPing', endpoint_id: 'w1', ping_id: 'p1', actor_id: 'k1', at: AT };

    it('deactivates softly, once', () => {
      given([registered()]).when(deactivate).then([deactivated('w1')]);
      given([registered(), deactivated('w1')]).when(deactivate).thenNothingHappened();
    });

    it('rotates the secret and keeps the old one signing for the overlap', () => {
      given([registered()]).when(rotate).then([{
        type: 'WebhookSecretRotated',
        data: { endpoint_id: 'w1', secret_ciphertext: 'v1.new', previous_valid_until: new Date(Date.parse(AT) + ROTATION_OVERLAP_MS).toISOString(), rotated_by: 'k1', rotated_at: AT },
      }]);
      const state = fold(webhookDecider, [registered(), ...webhookDecider.decide(rotate, fold(webhookDecider, [registered()]))]);
      expect(state.endpoints[0]).to.include({ secret_ciphertext: 'v1.new', previous_secret_ciphertext: 'v1.sealed' });
    });

    it('requests a test ping for an active endpoint only', () => {
      given([registered()]).when(ping).then([{ type: 'WebhookTestRequested', data: { endpoint_id: 'w1', organisation_id: 'o1', ping_id: 'p1', requested_by: 'k1', requested_at: AT } }]);
      given([registered(), deactivated('w1')]).when(ping).thenThrows('webhook_inactive');
      given([registered(), deactivated('w1')]).when(rotate).thenThrows('webhook_inactive');
    });

    it('answers 404 webhook_not_found for an endpoint the organisation does not have', () => {
      for (const command of [deactivate, rotate, ping]) given([]).when(command).thenThrows('webhook_not_found');
    });
  });

  describe('update (PATCH)', () => {
    const update = (changes: Extract<WebhookCommand, { type: 'UpdateEndpoint' }>['changes'], more: Partial<Extract<WebhookCommand, { type: 'UpdateEndpoint' }>> = {}): WebhookCommand => ({
      type: 'UpdateEndpoint', endpoint_id: 'w1', changes, target: changes.url === undefined ? null : { allowed: true }, expected_version: null, actor_id: 'k1', at: AT, ...more,
    });
    const updated = (data: Partial<Extract<WebhookEvent, { type: 'WebhookEndpointUpdated' }>['data']>): WebhookEvent => ({
      type: 'WebhookEndpointUpdated',
      data: {
        endpoint_id: 'w1', url: 'https://hooks.example.com/in', events: [...DEFAULT_EVENT_TYPES], description: 'ERP', is_active: true, changed: [],
        updated_by: 'k1', updated_at: AT, ...data,
      },
    });

    it('changes the fields sent and keeps the others, naming what changed', () => {
      given([registered()]).when(update({ url: 'https://erp.example.com/hooks', events: 'invoice.created' }))
        .then([updated({ url: 'https://erp.example.com/hooks', events: ['invoice.created'], changed: ['url', 'events'] })]);
      given([registered()]).when(update({ description: null })).then([updated({ description: null, changed: ['description'] })]);
    });

    it('takes events as an array as well as the spec\'s comma-separated string', () => {
      given([registered()]).when(update({ events: ['invoice.created', ' invoice.queued', 'invoice.created'] }))
        .then([updated({ events: ['invoice.created', 'invoice.queued'], changed: ['events'] })]);
    });

    it('writes nothing when every value sent is the stored one', () => {
      given([registered()]).when(update({ url: 'https://hooks.example.com/in', description: 'ERP', is_active: true })).thenNothingHappened();
      given([registered()]).when(update({})).thenNothingHappened();
    });

    it('checks the URL exactly as at create: the same 422 on body.url, and webhook_url_not_allowed for a host that is not public', () => {
      for (const url of ['ftp://hooks.example.com/', 'https://user:pw@hooks.example.com/', 'not a url']) {
        given([registered()]).when(update({ url })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.url']));
      }
      const target = { allowed: false as const, reason: 'private', message: 'the host resolves to a private network address' };
      given([registered()]).when(update({ url: 'https://db.internal.example/' }, { target })).thenThrows('webhook_url_not_allowed', { reason: 'private' });
    });

    it('checks events and description as at create', () => {
      given([registered()]).when(update({ events: 'invoice.created,,x' })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.events']));
      given([registered()]).when(update({ events: [] })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.events']));
      given([registered()]).when(update({ events: ['invoice.created,invoice.queued'] })).thenThrows(InvalidFields);
      given([registered()]).when(update({ description: 'x'.repeat(501) })).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.description']));
    });

    it('refuses a stale If-Match with version_mismatch carrying the endpoint\'s current version; every change of the endpoint moves it on', () => {
      const history = [registered(), updated({ description: 'v1', changed: ['description'] })];
      expect(fold(webhookDecider, history).endpoints[0]!.version).to.equal(1);
      given(history).when(update({ description: 'v2' }, { expected_version: 0 })).thenThrows('version_mismatch', { current_version: 1 });
      given(history).when(update({ description: 'v2' }, { expected_version: 1 })).then([updated({ description: 'v2', changed: ['description'] })]);
      // another endpoint's change is not this one's
      given([...history, registered({ endpoint_id: 'w2' }), deactivated('w2')]).when(update({ description: 'v2' }, { expected_version: 1 })).then([updated({ description: 'v2', changed: ['description'] })]);
    });

    it('is_active false deactivates; true turns it on again, counted toward the limit', () => {
      given([registered()]).when(update({ is_active: false })).then([updated({ is_active: false, changed: ['is_active'] })]);
      const off = fold(webhookDecider, [registered(), updated({ is_active: false, changed: ['is_active'] })]);
      expect(off.endpoints[0]).to.include({ is_active: false, deactivated_at: AT });
      given([registered(), deactivated('w1')]).when(update({ is_active: true })).then([updated({ is_active: true, changed: ['is_active'] })]);
      given([registered(), deactivated('w1'), ...endpoints(MAX_ACTIVE_ENDPOINTS)]).when(update({ is_active: true })).thenThrows('webhook_limit_reached', { limit: 10, active: 10 });
    });

    it('an updated endpoint receives by its new list', () => {
      const state = fold(webhookDecider, [registered(), updated({ events: ['invoice.created'], changed: ['events'] })]);
      expect(subscribers(state, 'invoice.created', null).map((e) => e.endpoint_id)).to.deep.equal(['w1']);
      expect(subscribers(state, 'invoice.delivered', null)).to.deep.equal([]);
    });

    it('answers 404 webhook_not_found for an endpoint the organisation does not have', () => {
      given([]).when(update({ description: 'x' })).thenThrows('webhook_not_found');
    });
  });

  describe('resend', () => {
    const active = { endpoint_id: 'w1', is_active: true };
    it('resends a delivered or dropped event to an active endpoint', () => {
      for (const status of ['delivered', 'failed', 'blocked', 'cancelled'] as const) expect(() => checkResend(active, { event_id: 'e1', status })).not.to.throw();
    });
    it('refuses while attempts are still to come (409 webhook_event_not_resendable), to a deactivated endpoint (409 webhook_inactive), and an unknown event (404)', () => {
      const code = (f: () => void) => { try { f(); } catch (e) { return (e as DomainError).code; } return null; };
      expect(code(() => checkResend(active, { event_id: 'e1', status: 'pending' }))).to.equal('webhook_event_not_resendable');
      expect(code(() => checkResend({ endpoint_id: 'w1', is_active: false }, { event_id: 'e1', status: 'failed' }))).to.equal('webhook_inactive');
      expect(code(() => checkResend(active, null))).to.equal('webhook_event_not_found');
    });
    it('names the state a customer sees for every queue status', () => {
      expect((['pending', 'delivered', 'failed', 'blocked', 'cancelled'] as const).map((s) => eventDeliveryState(s))).to.deep.equal([
        { state: 'retrying', dropped_reason: null }, { state: 'delivered', dropped_reason: null }, { state: 'dropped', dropped_reason: 'attempts_exhausted' },
        { state: 'dropped', dropped_reason: 'target_not_allowed' }, { state: 'dropped', dropped_reason: 'endpoint_deactivated' },
      ]);
    });
  });

  describe('who receives an event', () => {
    const state = fold(webhookDecider, [
      registered({ endpoint_id: 'org', events: ['invoice.delivered', 'invoice.created'] }),
      registered({ endpoint_id: 'ws', workspace_id: 'ws1', events: ['invoice.created'] }),
      registered({ endpoint_id: 'other-ws', workspace_id: 'ws2', events: ['invoice.created'] }),
      registered({ endpoint_id: 'gone', events: ['invoice.created'] }),
      deactivated('gone'),
    ]);
    const ids = (type: string, workspace: string) => subscribers(state, type, workspace).map((e) => e.endpoint_id);

    it('an organisation-wide endpoint covers every workspace; a workspace endpoint only its own; deactivated ones none', () => {
      expect(ids('invoice.created', 'ws1')).to.deep.equal(['org', 'ws']);
      expect(ids('invoice.created', 'ws3')).to.deep.equal(['org']);
      expect(ids('invoice.delivered', 'ws2')).to.deep.equal(['org']);
    });

    it('an endpoint registered before invoice.fs_rejected existed keeps its stored list and never gets it', () => {
      const old = fold(webhookDecider, [registered({ events: ['invoice.delivered', 'invoice.rejected', 'invoice.fs_acknowledged'] })]);
      expect(subscribers(old, 'invoice.fs_rejected', 'ws1')).to.deep.equal([]);
      expect(subscribers(old, 'invoice.fs_acknowledged', 'ws1')).to.have.length(1);
    });
  });

  it('the default list is the spec\'s, and resolving keeps order', () => {
    expect(resolveEventTypes(null)).to.deep.equal({ ok: true, events: ['invoice.delivered', 'invoice.rejected', 'invoice.fs_acknowledged', 'invoice.fs_rejected'] });
  });

  it('management is for API keys: a user or OAuth token gets 401 api_key_required', () => {
    expect(() => requireApiKey({ type: 'api_key' })).not.to.throw();
    for (const type of ['user', 'oauth_client'] as const) {
      const error = (() => { try { requireApiKey({ type }); } catch (e) { return e; } return null; })();
      expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'api_key_required' });
    }
  });
});
