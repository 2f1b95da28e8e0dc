import type { Actor } from '../../../commands/shared/actor.ts';
import { NotFound } from '../../../commands/shared/access.ts';
import { webhookDecider, type EndpointChanges, type TargetVerdict, type WebhookCommand, type WebhookEndpoint } from '../../../commands/webhooks/decider.ts';
import type { EventTypesInput } from '../../../commands/webhooks/event-types.ts';
import { requireApiKey } from '../../../commands/webhooks/access.ts';
import { webhookPingStream, webhooksStream } from '../../../events/webhooks.ts';
import { workspaceExists } from '../../../projections/tenancy/queries.ts';
import type { Core } from '../../platform/core.ts';
import { WrongExpectedRevision, type Position } from '../../platform/eventstore/port.ts';
import { appendAt } from '../../platform/handling/append.ts';
import { handleCommand, toNewEvents } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { newWebhookSecret, type WebhookSecrets } from './secret-box.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';

/** Checks a URL's host the way every delivery will (src/platform/http-client/target-guard.ts). */
type CheckTarget = (url: string) => Promise<TargetVerdict>;

export type WebhookCommandDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels'> & { secrets: WebhookSecrets; checkTarget: CheckTarget };

/** Parallel creates in one organisation are decided again on the newer stream: 20 at once all get an answer. */
const ENDPOINT_RETRIES = 32;

export interface EndpointChanged {
  endpoint: WebhookEndpoint;
  /** the plaintext secret, only after create and rotate */
  secret: string | null;
  position: Position | null;
}

interface EndpointRequest {
  actor: Actor;
  requestId: string;
}

function endpointIn(endpoints: readonly WebhookEndpoint[], endpointId: string): WebhookEndpoint {
  const endpoint = endpoints.find((e) => e.endpoint_id === endpointId);
  if (!endpoint) throw new Error(`webhook endpoint ${endpointId} is not in its stream after its command`);
  return endpoint;
}

async function decide(deps: WebhookCommandDeps, request: EndpointRequest, command: WebhookCommand, endpointId: string, secret: string | null): Promise<EndpointChanged> {
  requireApiKey(request.actor);
  const handled = await handleCommand(deps, webhooksStream(request.actor.organisationId), webhookDecider, command, {
    metadata: requestMetadata(request.actor, request.requestId), expected: { retry: { onVersionConflict: ENDPOINT_RETRIES } },
  });
  const endpoint = endpointIn(handled.state.endpoints, endpointId);
  // a create resumed under its Idempotency-Key after its first run wrote it answers the secret that run stored
  const shown = secret !== null && handled.events.length === 0 ? (await deps.secrets.box()).open(endpoint.secret_ciphertext) : secret;
  return { endpoint, secret: shown, position: handled.position };
}

/**
 * POST /connect/webhooks (workspaceId null) and POST /workspaces/{id}/webhooks. The URL's host is
 * resolved and judged before deciding; the secret is made here, sealed into the event, and shown once.
 */
export async function registerEndpoint(
  deps: WebhookCommandDeps,
  request: EndpointRequest & { workspaceId: string | null; url: string; events: EventTypesInput | null; description: string | null },
): Promise<EndpointChanged> {
  requireApiKey(request.actor);
  const endpointId = deps.ids.next();
  if (request.workspaceId !== null && !(await workspaceExists(deps.readModels, request.actor.organisationId, request.workspaceId))) {
    throw new NotFound('workspace_not_found', 'workspace not found');
  }
  const secret = newWebhookSecret();
  const target = await deps.checkTarget(request.url);
  return decide(deps, request, {
    type: 'RegisterEndpoint', endpoint_id: endpointId, organisation_id: request.actor.organisationId, workspace_id: request.workspaceId, url: request.url,
    events: request.events, description: request.description, target, secret_ciphertext: (await deps.secrets.box()).seal(secret), actor_id: request.actor.id,
    at: deps.clock.now().toISOString(),
  }, endpointId, secret);
}

/**
 * PATCH: a new URL's host is resolved and judged before deciding, as at create; the decider holds
 * every rule (the fields, the host's verdict, If-Match against the endpoint's own version, the
 * limit when turned on again). Without If-Match a lost race is decided again on the newer stream.
 */
export async function updateEndpoint(
  deps: WebhookCommandDeps,
  request: EndpointRequest & { endpointId: string; changes: EndpointChanges; expectedVersion: number | undefined },
): Promise<EndpointChanged> {
  requireApiKey(request.actor);
  const target = request.changes.url === undefined ? null : await deps.checkTarget(request.changes.url);
  return decide(deps, request, {
    type: 'UpdateEndpoint', endpoint_id: request.endpointId, changes: request.changes, target, expected_version: request.expectedVersion ?? null,
    actor_id: request.actor.id, at: deps.clock.now().toISOString(),
  }, request.endpointId, null);
}

export async function deactivateEndpoint(deps: WebhookCommandDeps, request: EndpointRequest & { endpointId: string }): Promise<EndpointChanged> {
  return decide(deps, request, { type: 'DeactivateEndpoint', endpoint_id: request.endpointId, actor_id: request.actor.id, at: deps.clock.now().toISOString() }, request.endpointId, null);
}

export async function rotateEndpointSecret(deps: WebhookCommandDeps, request: EndpointRequest & { endpointId: string }): Promise<EndpointChanged> {
  const secret = newWebhookSecret();
  return decide(deps, request, {
    type: 'RotateSecret', endpoint_id: request.endpointId, secret_ciphertext: (await deps.secrets.box()).seal(secret), actor_id: request.actor.id, at: deps.clock.now().toISOString(),
  }, request.endpointId, secret);
}

/**
 * The ping is decided on the organisation's endpoints (active ones only) and written to its own
 * stream (webhookPingStream). Its id is the request's first minted id, so a resumed request finds
 * its ping written and pings once.
 */
export async function requestTestPing(deps: WebhookCommandDeps, request: EndpointRequest & { endpointId: string }): Promise<EndpointChanged & { pingId: string }> {
  requireApiKey(request.actor);
  const pingId = deps.ids.next();
  const { state } = await readAndFold(deps.store, webhooksStream(request.actor.organisationId), webhookDecider);
  const events = webhookDecider.decide({
    type: 'RequestTestPing', endpoint_id: request.endpointId, ping_id: pingId, actor_id: request.actor.id, at: deps.clock.now().toISOString(),
  }, state);
  const endpoint = endpointIn(state.endpoints, request.endpointId);
  try {
    const appended = await appendAt(deps.store, { streamId: webhookPingStream(pingId), events: toNewEvents(deps, events, requestMetadata(request.actor, request.requestId)), at: { newStream: true } });
    return { endpoint, secret: null, position: appended.position, pingId };
  } catch (error) {
    if (!(error instanceof WrongExpectedRevision)) throw error;
    return { endpoint, secret: null, position: null, pingId }; // written by the request's first run
  }
}
