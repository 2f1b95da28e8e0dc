import type { WebhookEvent } from '../../events/webhooks.ts';
import { NotFound } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { resolveEventTypes } from './event-types.ts';

/** Active endpoints an organisation may have (spec, Limits). Workspace endpoints count too. */
export const MAX_ACTIVE_ENDPOINTS = 10;
export const URL_MAX_LENGTH = 2048;
export const DESCRIPTION_MAX_LENGTH = 500;
/** After a rotation the old secret still signs beside the new one this long, so a consumer can deploy the new one without failed deliveries. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the URL's host resolved to public addresses only (checked outside, before deciding). A
 * refusal says why in general terms (`reason`: loopback, private, link_local, not_public,
 * unresolvable, …; `message` in words) and never names the address a host resolved to: the answer
 * must not let a caller map internal DNS.
 */
export type TargetVerdict = { allowed: true } | { allowed: false; reason: string; message: string };

export type WebhookCommand =
  | {
      type: 'RegisterEndpoint';
      endpoint_id: string;
      organisation_id: string;
      workspace_id: string | null;
      url: string;
      /** as sent: a comma-separated list, or null for the default */
      events: string | null;
      description: string | null;
      target: TargetVerdict;
      secret_ciphertext: string;
      actor_id: string;
      at: string;
    }
  | { type: 'DeactivateEndpoint'; endpoint_id: string; actor_id: string; at: string }
  | { type: 'RotateSecret'; endpoint_id: string; secret_ciphertext: string; actor_id: string; at: string }
  | { type: 'RequestTestPing'; endpoint_id: string; ping_id: string; actor_id: string; at: string };

export interface WebhookEndpoint {
  endpoint_id: string;
  organisation_id: string;
  workspace_id: string | null;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  created_at: string;
  deactivated_at: string | null;
  secret_ciphertext: string;
  /** the secret before the last rotation, still signing until previous_valid_until */
  previous_secret_ciphertext: string | null;
  previous_valid_until: string | null;
}

/** The organisation's endpoints, oldest first. */
export interface WebhooksState {
  endpoints: WebhookEndpoint[];
}

export const webhookNotFound = () => new NotFound('webhook_not_found', 'webhook endpoint not found');

const inactive = (endpoint: WebhookEndpoint) =>
  new DomainError('webhook_inactive', 'the webhook endpoint was deactivated; create a new one', { webhook_id: endpoint.endpoint_id });

function findEndpoint(state: WebhooksState, endpointId: string): WebhookEndpoint {
  const endpoint = state.endpoints.find((e) => e.endpoint_id === endpointId);
  if (!endpoint) throw webhookNotFound();
  return endpoint;
}

export const activeEndpoints = (state: WebhooksState) => state.endpoints.filter((e) => e.is_active);

/**
 * Which endpoints receive an event of `type` about a company of `workspaceId`: active ones that
 * subscribe to the type, organisation-wide or of that workspace. A workspace endpoint covers the
 * workspace's companies as they are when the event happens, so companies added later are included.
 */
export function subscribers(state: WebhooksState, type: string, workspaceId: string | null): WebhookEndpoint[] {
  return activeEndpoints(state).filter((e) => e.events.includes(type) && (e.workspace_id === null || e.workspace_id === workspaceId));
}

function checkRegistration(command: Extract<WebhookCommand, { type: 'RegisterEndpoint' }>): string[] {
  let events: string[] = [];
  checkFields((problem) => {
    let url: URL | null = null;
    try {
      url = new URL(command.url);
    } catch {
      problem('url', 'url must be an absolute http or https URL', command.url);
    }
    if (url && url.protocol !== 'https:' && url.protocol !== 'http:') problem('url', 'url must use http or https', command.url);
    if (url && (url.username !== '' || url.password !== '')) problem('url', 'url must not carry credentials', command.url);
    if (command.url.length > URL_MAX_LENGTH) problem('url', `url is at most ${URL_MAX_LENGTH} characters`, command.url);
    const resolved = resolveEventTypes(command.events);
    if (resolved.ok) events = resolved.events;
    else problem('events', resolved.problem, command.events);
    if (command.description !== null && command.description.length > DESCRIPTION_MAX_LENGTH) {
      problem('description', `description is at most ${DESCRIPTION_MAX_LENGTH} characters`, command.description);
    }
  });
  return events;
}

/**
 * The webhook endpoints of one organisation (stream webhooks-{organisation_id}). Every rule that
 * counts endpoints is decided on this one stream, so twenty parallel creates at nine active
 * endpoints leave exactly one winner: the others are decided again on the newer version and meet
 * the limit.
 */
export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhooksState> = {
  initialState: { endpoints: [] },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterEndpoint': {
        // the same endpoint again (a request resumed under its Idempotency-Key) registers nothing more
        if (state.endpoints.some((e) => e.endpoint_id === command.endpoint_id)) return [];
        const events = checkRegistration(command);
        if (!command.target.allowed) {
          throw new DomainError('webhook_url_not_allowed', `the webhook URL is not allowed: ${command.target.message}; it must resolve to public internet addresses only`, {
            reason: command.target.reason,
          });
        }
        const active = activeEndpoints(state).length;
        if (active >= MAX_ACTIVE_ENDPOINTS) {
          throw new DomainError('webhook_limit_reached', `an organisation has at most ${MAX_ACTIVE_ENDPOINTS} active webhook endpoints; delete one first`, {
            limit: MAX_ACTIVE_ENDPOINTS, active,
          });
        }
        return [{
          type: 'WebhookEndpointRegistered',
          data: {
            endpoint_id: command.endpoint_id, organisation_id: command.organisation_id, workspace_id: command.workspace_id, url: command.url, events,
            description: command.description, secret_ciphertext: command.secret_ciphertext, registered_by: command.actor_id, registered_at: command.at,
          },
        }];
      }
      case 'DeactivateEndpoint': {
        const endpoint = findEndpoint(state, command.endpoint_id);
        // deleting again changes nothing: the first deactivation stands
        if (!endpoint.is_active) return [];
        return [{ type: 'WebhookEndpointDeactivated', data: { endpoint_id: endpoint.endpoint_id, deactivated_by: command.actor_id, deactivated_at: command.at } }];
      }
      case 'RotateSecret': {
        const endpoint = findEndpoint(state, command.endpoint_id);
        if (!endpoint.is_active) throw inactive(endpoint);
        return [{
          type: 'WebhookSecretRotated',
          data: {
            endpoint_id: endpoint.endpoint_id, secret_ciphertext: command.secret_ciphertext,
            previous_valid_until: new Date(new Date(command.at).getTime() + ROTATION_OVERLAP_MS).toISOString(), rotated_by: command.actor_id, rotated_at: command.at,
          },
        }];
      }
      case 'RequestTestPing': {
        const endpoint = findEndpoint(state, command.endpoint_id);
        if (!endpoint.is_active) throw inactive(endpoint);
        return [{
          type: 'WebhookTestRequested',
          data: { endpoint_id: endpoint.endpoint_id, organisation_id: endpoint.organisation_id, ping_id: command.ping_id, requested_by: command.actor_id, requested_at: command.at },
        }];
      }
    }
  },

  evolve(state, event) {
    const update = (endpointId: string, change: (e: WebhookEndpoint) => WebhookEndpoint): WebhooksState => ({
      endpoints: state.endpoints.map((e) => (e.endpoint_id === endpointId ? change(e) : e)),
    });
    switch (event.type) {
      case 'WebhookEndpointRegistered': {
        const d = event.data;
        return {
          endpoints: [...state.endpoints, {
            endpoint_id: d.endpoint_id, organisation_id: d.organisation_id, workspace_id: d.workspace_id, url: d.url, events: d.events,
            description: d.description, is_active: true, created_at: d.registered_at, deactivated_at: null, secret_ciphertext: d.secret_ciphertext,
            previous_secret_ciphertext: null, previous_valid_until: null,
          }],
        };
      }
      case 'WebhookEndpointDeactivated':
        return update(event.data.endpoint_id, (e) => ({ ...e, is_active: false, deactivated_at: event.data.deactivated_at }));
      case 'WebhookSecretRotated':
        return update(event.data.endpoint_id, (e) => ({
          ...e, secret_ciphertext: event.data.secret_ciphertext, previous_secret_ciphertext: e.secret_ciphertext, previous_valid_until: event.data.previous_valid_until,
        }));
      case 'WebhookTestRequested':
        return state;
    }
  },
};
