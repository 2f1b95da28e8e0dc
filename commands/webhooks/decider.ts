import type { WebhookEvent } from '../../events/webhooks.ts';
import { NotFound } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { resolveEventTypes, type EventTypesInput } from './event-types.ts';

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
      /** as sent: a comma-separated list or an array, or null for the default */
      events: EventTypesInput | null;
      description: string | null;
      target: TargetVerdict;
      secret_ciphertext: string;
      actor_id: string;
      at: string;
    }
  | {
      type: 'UpdateEndpoint';
      endpoint_id: string;
      /** what the PATCH sent: a field left out stays as it is */
      changes: EndpointChanges;
      /** the verdict on changes.url's host, checked as at create; null when no url was sent */
      target: TargetVerdict | null;
      /** the client's If-Match: the endpoint's version it read, or null for none */
      expected_version: number | null;
      actor_id: string;
      at: string;
    }
  | { type: 'DeactivateEndpoint'; endpoint_id: string; actor_id: string; at: string }
  | { type: 'RotateSecret'; endpoint_id: string; secret_ciphertext: string; actor_id: string; at: string }
  | { type: 'RequestTestPing'; endpoint_id: string; ping_id: string; actor_id: string; at: string };

export interface EndpointChanges {
  url?: string;
  /** a comma-separated list (the spec) or an array of types */
  events?: EventTypesInput;
  description?: string | null;
  is_active?: boolean;
}

export interface WebhookEndpoint {
  endpoint_id: string;
  /** 0 when registered, one more with every change of this endpoint (its If-Match version) */
  version: number;
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

/** The fields create and PATCH both take, checked alike; the events list resolved (null: events not sent). */
function checkEndpointFields(fields: { url?: string; events?: EventTypesInput | null; description?: string | null }, resolveDefault: boolean): string[] | null {
  let events: string[] | null = null;
  checkFields((problem) => {
    if (fields.url !== undefined) {
      const sent = fields.url;
      let url: URL | null = null;
      try {
        url = new URL(sent);
      } catch {
        problem('url', 'url must be an absolute http or https URL', sent);
      }
      if (url && url.protocol !== 'https:' && url.protocol !== 'http:') problem('url', 'url must use http or https', sent);
      if (url && (url.username !== '' || url.password !== '')) problem('url', 'url must not carry credentials', sent);
      if (sent.length > URL_MAX_LENGTH) problem('url', `url is at most ${URL_MAX_LENGTH} characters`, sent);
    }
    if (fields.events !== undefined && (fields.events !== null || resolveDefault)) {
      const resolved = resolveEventTypes(fields.events);
      if (resolved.ok) events = resolved.events;
      else problem('events', resolved.problem, fields.events);
    }
    const description = fields.description;
    if (description !== undefined && description !== null && description.length > DESCRIPTION_MAX_LENGTH) {
      problem('description', `description is at most ${DESCRIPTION_MAX_LENGTH} characters`, description);
    }
  });
  return events;
}

const urlNotAllowed = (target: Extract<TargetVerdict, { allowed: false }>) =>
  new DomainError('webhook_url_not_allowed', `the webhook URL is not allowed: ${target.message}; it must resolve to public internet addresses only`, {
    reason: target.reason,
  });

const limitReached = (active: number) =>
  new DomainError('webhook_limit_reached', `an organisation has at most ${MAX_ACTIVE_ENDPOINTS} active webhook endpoints; delete one first`, {
    limit: MAX_ACTIVE_ENDPOINTS, active,
  });

/**
 * PATCH: the fields sent, checked exactly as at create (the same 422s, the same host check), at
 * the version the client read when it sent If-Match (412 `version_mismatch` otherwise, carrying
 * the current one). Turning an endpoint on again counts it toward the limit. Nothing changed
 * (every value sent is the stored one) writes nothing.
 */
function decideUpdate(command: Extract<WebhookCommand, { type: 'UpdateEndpoint' }>, state: WebhooksState): WebhookEvent[] {
  const endpoint = findEndpoint(state, command.endpoint_id);
  if (command.expected_version !== null && command.expected_version !== endpoint.version) {
    throw new DomainError('version_mismatch', 'the webhook endpoint has changed since the version given in If-Match', { current_version: endpoint.version });
  }
  const { changes } = command;
  const events = checkEndpointFields(changes, false) ?? endpoint.events;
  if (changes.url !== undefined) {
    if (command.target === null) throw new Error('a webhook URL change must come with the verdict on its host');
    if (!command.target.allowed) throw urlNotAllowed(command.target);
  }
  const next = {
    url: changes.url ?? endpoint.url,
    events,
    description: changes.description === undefined ? endpoint.description : changes.description,
    is_active: changes.is_active ?? endpoint.is_active,
  };
  if (next.is_active && !endpoint.is_active) {
    const active = activeEndpoints(state).length;
    if (active >= MAX_ACTIVE_ENDPOINTS) throw limitReached(active);
  }
  const changed = ([
    ['url', next.url !== endpoint.url],
    ['events', next.events.join(',') !== endpoint.events.join(',')],
    ['description', next.description !== endpoint.description],
    ['is_active', next.is_active !== endpoint.is_active],
  ] as const).filter(([, differs]) => differs).map(([field]) => field);
  if (changed.length === 0) return [];
  return [{ type: 'WebhookEndpointUpdated', data: { endpoint_id: endpoint.endpoint_id, ...next, changed, updated_by: command.actor_id, updated_at: command.at } }];
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
        const events = checkEndpointFields(command, true) ?? [];
        if (!command.target.allowed) throw urlNotAllowed(command.target);
        const active = activeEndpoints(state).length;
        if (active >= MAX_ACTIVE_ENDPOINTS) throw limitReached(active);
        return [{
          type: 'WebhookEndpointRegistered',
          data: {
            endpoint_id: command.endpoint_id, organisation_id: command.organisation_id, workspace_id: command.workspace_id, url: command.url, events,
            description: command.description, secret_ciphertext: command.secret_ciphertext, registered_by: command.actor_id, registered_at: command.at,
          },
        }];
      }
      case 'UpdateEndpoint':
        return decideUpdate(command, state);
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
    // every change of an endpoint moves its version on
    const update = (endpointId: string, change: (e: WebhookEndpoint) => WebhookEndpoint): WebhooksState => ({
      endpoints: state.endpoints.map((e) => (e.endpoint_id === endpointId ? { ...change(e), version: e.version + 1 } : e)),
    });
    switch (event.type) {
      case 'WebhookEndpointRegistered': {
        const d = event.data;
        return {
          endpoints: [...state.endpoints, {
            endpoint_id: d.endpoint_id, version: 0, organisation_id: d.organisation_id, workspace_id: d.workspace_id, url: d.url, events: d.events,
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
      case 'WebhookEndpointUpdated': {
        const d = event.data;
        return update(d.endpoint_id, (e) => ({
          ...e, url: d.url, events: d.events, description: d.description, is_active: d.is_active,
          deactivated_at: d.is_active ? null : e.is_active ? d.updated_at : e.deactivated_at,
        }));
      }
      case 'WebhookTestRequested':
        return state;
    }
  },
};
