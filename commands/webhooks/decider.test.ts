import { expect } from 'chai';
import type { WebhookEndpointRegistered, WebhookEvent } from '../../events/webhooks.ts';
import { fold } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { specFor } from '../shared/given.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { requireApiKey } from './access.ts';
import { MAX_ACTIVE_ENDPOINTS, ROTATION_OVERLAP_MS, subscribers, webhookDecider, type WebhookCommand } from './decider.ts';
import { DEFAULT_EVENT_TYPES, resolveEventTypes } from './event-types.ts';

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
