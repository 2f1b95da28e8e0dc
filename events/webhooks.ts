import type { DomainEvent } from './event.ts';

/*
 * Webhook endpoints of one organisation, all in one stream (webhooks-{organisation_id}): the limit
 * of active endpoints per organisation is then decided on one version, so parallel creates cannot
 * pass it together. Secrets are stored encrypted (AES-256-GCM under the service's webhook key):
 * svc-signature is keyed with the plaintext, so a hash alone would not do.
 */

export type WebhookEndpointRegistered = DomainEvent<
  'WebhookEndpointRegistered',
  {
    endpoint_id: string;
    organisation_id: string;
    /** null: every company of the organisation (POST /connect/webhooks); else the workspace's companies */
    workspace_id: string | null;
    url: string;
    /** the resolved subscription: what was asked for, or the default list of the day it was created */
    events: string[];
    description: string | null;
    /** the `whsec_` secret, encrypted (src/modules/webhooks/secret-box.ts); never the plaintext */
    secret_ciphertext: string;
    registered_by: string;
    registered_at: string;
  }
>;

/** DELETE: the endpoint stops receiving; its record and deliveries stay readable. */
export type WebhookEndpointDeactivated = DomainEvent<
  'WebhookEndpointDeactivated',
  { endpoint_id: string; deactivated_by: string; deactivated_at: string }
>;

/** A new secret; the previous one still signs beside it until `previous_valid_until`. */
export type WebhookSecretRotated = DomainEvent<
  'WebhookSecretRotated',
  { endpoint_id: string; secret_ciphertext: string; previous_valid_until: string; rotated_by: string; rotated_at: string }
>;

/** POST …/test: a synthetic test.ping for this endpoint only, through the same delivery pipeline. */
export type WebhookTestRequested = DomainEvent<
  'WebhookTestRequested',
  { endpoint_id: string; organisation_id: string; ping_id: string; requested_by: string; requested_at: string }
>;

/**
 * PATCH: the endpoint's url, events, description or is_active changed. It carries the values after
 * the change (every one, changed or not) and `changed` names those that did, so a reader sets the
 * record without folding. Deactivating by PATCH is this event too, with is_active false.
 */
export type WebhookEndpointUpdated = DomainEvent<
  'WebhookEndpointUpdated',
  {
    endpoint_id: string;
    url: string;
    events: string[];
    description: string | null;
    is_active: boolean;
    changed: ('url' | 'events' | 'description' | 'is_active')[];
    updated_by: string;
    updated_at: string;
  }
>;

export type WebhookEvent = WebhookEndpointRegistered | WebhookEndpointDeactivated | WebhookSecretRotated | WebhookTestRequested | WebhookEndpointUpdated;

export const webhooksStream = (organisationId: string) => `webhooks-${organisationId}`;

/**
 * A test ping changes no endpoint, so it has a stream of its own (one event, named by the ping id:
 * a resumed request cannot ping twice) instead of growing the organisation's stream, which every
 * endpoint command folds. Pings requested before this are on the organisation's stream.
 */
export const webhookPingStream = (pingId: string) => `webhook-ping-${pingId}`;
