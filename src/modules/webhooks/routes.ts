import { Type } from '@sinclair/typebox';
import type { Actor } from '../../../commands/shared/actor.ts';
import { NotFound } from '../../../commands/shared/access.ts';
import { requireApiKey } from '../../../commands/webhooks/access.ts';
import { webhookNotFound, type WebhookEndpoint } from '../../../commands/webhooks/decider.ts';
import { getWebhookEndpoint, listWebhookEndpoints, WEBHOOK_ENDPOINTS, type WebhookEndpointRow } from '../../../projections/webhook-endpoints/queries.ts';
import { workspaceExists } from '../../../projections/tenancy/queries.ts';
import { webhooksStream } from '../../../events/webhooks.ts';
import { ErrorBody, PagingQuery, Uuid } from '../../../schemas/common/index.ts';
import {
  Webhook, WebhookCreate, WebhookDeliveryList, WebhookEventList, WebhookList, WebhookResendQueued, WebhookTestFired, WebhookUpdate, WebhookWithSecret,
  type WebhookDeliveryAttempt, type WebhookEventRecord,
} from '../../../schemas/webhooks.ts';
import { eventDeliveryState } from '../../../commands/webhooks/resend.ts';
import {
  deactivateEndpoint, registerEndpoint, requestTestPing, rotateEndpointSecret, updateEndpoint, type EndpointChanged, type WebhookCommandDeps,
} from './endpoints.ts';
import { resendEvent } from './resend.ts';
import type { Core } from '../../platform/core.ts';
import { testPingEventId } from './fan-out.ts';
import type { LoggedEvent, WebhookQueue } from './queue/store.ts';
import { readCurrent } from '../../platform/readmodel/current-read.ts';
import { idempotent } from '../idempotency/index.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { ETAG_HEADER, LOCATION_HEADER, ifMatchHeader } from '../../platform/http/index.ts';

type WebhookRouteDeps = WebhookCommandDeps & Pick<Core, 'projections' | 'config'> & { queue: WebhookQueue; queued(endpointIds: readonly string[]): void };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function fromState(e: WebhookEndpoint): Webhook {
  return {
    id: e.endpoint_id, url: e.url, events: e.events.join(','), is_active: e.is_active, description: e.description, created_at: e.created_at,
    workspace_id: e.workspace_id, scope: e.workspace_id === null ? 'organisation' : 'workspace', version: e.version,
  };
}

function fromRow(r: WebhookEndpointRow): Webhook {
  return {
    id: r.id, url: r.url, events: r.events.join(','), is_active: r.is_active, description: r.description, created_at: iso(r.created_at) ?? '',
    workspace_id: r.workspace_id, scope: r.workspace_id === null ? 'organisation' : 'workspace', version: r.version,
  };
}

/** The endpoint's version as an entity tag, as the other versioned resources answer it. */
const etag = (hook: Webhook) => ({ etag: `"${hook.version}"` });

function eventRecord(e: LoggedEvent): WebhookEventRecord {
  const { state, dropped_reason } = eventDeliveryState(e.status);
  return {
    event_id: e.event_id, event_type: e.event_type, created_at: iso(e.occurred_at) ?? '', queued_at: iso(e.enqueued_at) ?? '', state, dropped_reason,
    attempts: Number(e.attempts_total), next_attempt_at: state === 'retrying' ? iso(e.next_attempt_at) : null,
    last_attempt: e.last_attempt_at === null || e.last_outcome === null ? null : { attempted_at: iso(e.last_attempt_at) ?? '', http_status: e.last_http_status, outcome: e.last_outcome },
    resends: e.resends, last_resent_at: iso(e.last_resent_at),
  };
}

const SCOPE = [
  'Webhook management takes an API key; a signed-in user\'s or an OAuth client\'s token is 401 `api_key_required`.',
  'An endpoint made here covers every company of the organisation, companies added later included.',
].join(' ');
const WORKSPACE_SCOPE = [
  'Webhook management takes an API key; a user or OAuth token is 401 `api_key_required`. A workspace endpoint fires for every company of the workspace,',
  'companies added to it later included. It counts toward the organisation\'s 10 active endpoints, is listed by GET /connect/webhooks too (scope `workspace`),',
  'and may be managed through /connect/webhooks/{webhook_id}/… or the routes under its workspace; under another workspace it is 404 `webhook_not_found`.',
].join(' ');
const CREATE_RULES = [
  'The URL\'s host is resolved now and before every delivery attempt; every address must be public (no private, loopback, link-local, CGNAT, multicast,',
  'reserved, unspecified, IPv4-mapped or NAT64 forms of them, nor decimal/octal/hex literals of them): else 422 `webhook_url_not_allowed` (also for an',
  'unresolvable host), whose `reason` says why in general terms only (`loopback`, `private`, `link_local`, `not_public`, `unresolvable`, `invalid_url`,',
  '`scheme_not_allowed`, `credentials_in_url`): no answer names the address a host resolved to.',
  'At most 10 active endpoints per organisation: the 11th is 409 `webhook_limit_reached` ({limit, active}).',
  'The `whsec_` secret is in this answer only: a repeat under the same Idempotency-Key is 409 `idempotency_key_secret_not_replayable` naming the endpoint',
  '(rotate its secret to get a new one).',
].join(' ');

const WebhookParams = Type.Object({ webhook_id: Uuid });
const WorkspaceParams = Type.Object({ workspace_id: Uuid });
const WorkspaceWebhookParams = Type.Object({ workspace_id: Uuid, webhook_id: Uuid });
const EventId = Type.String({ minLength: 1, maxLength: 100, description: 'the event\'s id (X-Webhook-Event-Id), as GET …/events lists it' });
const WebhookEventParams = Type.Object({ webhook_id: Uuid, event_id: EventId });
const WorkspaceWebhookEventParams = Type.Object({ workspace_id: Uuid, webhook_id: Uuid, event_id: EventId });
const IF_MATCH = ifMatchHeader('optional: the endpoint\'s `version` as read (or its ETag); 412 `version_mismatch` (with current_version) when it changed since');
/** The spec's "last 50 delivery attempts": the first page at this list's own default page size */
const DeliveriesQuery = Type.Object({ page: PagingQuery.properties.page, page_size: Type.Integer({ minimum: 1, maximum: 100, default: 50 }) });
const notFound = { description: '`webhook_not_found`: no such endpoint in this organisation (or workspace)', schema: ErrorBody };
const wrongCredential = { description: '`api_key_required`: webhook management takes an API key, not a user or OAuth token', schema: ErrorBody };
const forbidden = { description: '`insufficient_role`', schema: ErrorBody };
const inactive = { description: '`webhook_inactive`: the endpoint was deleted', schema: ErrorBody };
const UPDATE_RULES = [
  'Every field is optional; one left out stays as it is, and values equal to the stored ones change nothing (the version stays).',
  'A new `url` is checked again exactly as at create: 422 on body.url for a malformed one, 422 `webhook_url_not_allowed` (with a general `reason`) for a host that',
  'does not resolve to public addresses only. `events` takes a comma-separated string or an array. `is_active: false` deactivates the endpoint (as DELETE);',
  '`is_active: true` turns it on again and counts toward the 10 active endpoints (409 `webhook_limit_reached`). The next event is delivered to the new url',
  'with the new list. If-Match with the endpoint\'s `version` is optional: 412 `version_mismatch` (carrying current_version) when it is stale.',
].join(' ');
const EVENTS_LOG = [
  'Every event sent to this endpoint, newest first (by the event\'s time), with its attempts in all, its last attempt and its state: `delivered`, `retrying`',
  '(attempts still to come) or `dropped` (none to come: five failures, a host no longer public, or the endpoint deleted first; `dropped_reason` says which).',
  'A dropped event can be sent again with POST …/events/{event_id}/resend. Kept 30 days after its last attempt or resend.',
].join(' ');
const RESEND_RULES = [
  'Queues a delivered or dropped event again for a new round of up to five attempts on the usual schedule, through the delivery queue (the answer does not wait for it).',
  'The body is the one first sent, so the event id (X-Webhook-Event-Id and the envelope\'s id) is the same; every attempt has a new X-Webhook-Delivery,',
  'signed afresh with the endpoint\'s current secret, to its current url. 404 `webhook_event_not_found` for an event this endpoint was not sent (or no longer keeps);',
  '409 `webhook_event_not_resendable` while attempts are still to come; 409 `webhook_inactive` for a deactivated endpoint.',
].join(' ');

/** /connect/webhooks and /workspaces/{workspace_id}/webhooks: create, list, delete, rotate, test, deliveries. */
export function webhookRoutes(deps: WebhookRouteDeps): Route[] {
  const { projections, config, readModels, queue } = deps;

  async function settled(changed: EndpointChanged): Promise<void> {
    // read-your-writes: a list right after this answer shows the change
    if (changed.position) await projections.caughtUp(changed.position, config.readYourWritesTimeoutMs, [WEBHOOK_ENDPOINTS]);
  }

  /**
   * The endpoint, if it is the caller's organisation's (and the workspace's, under a workspace
   * path). One made a moment ago through another instance, whose read model has not shown it yet,
   * is waited for on the organisation's webhooks stream (readCurrent); still not shown within the
   * bound, 503 `read_model_behind`, never a 404 for a stored endpoint. A found one is current
   * enough: what these routes need of it (organisation, workspace) never changes.
   */
  async function endpointOf(actor: Actor, webhookId: string, workspaceId: string | null): Promise<WebhookEndpointRow> {
    requireApiKey(actor);
    const row = await readCurrent(deps, {
      stream: webhooksStream(actor.organisationId), projectors: [WEBHOOK_ENDPOINTS], foundIsCurrent: true,
      read: () => getWebhookEndpoint(readModels, actor.organisationId, webhookId),
      // the stream is the caller's organisation's, shared by all its endpoints: its version is the configuration's
      visible: async () => true, resource: 'organisation\'s webhook configuration',
    });
    if (!row || (workspaceId !== null && row.workspace_id !== workspaceId)) throw webhookNotFound();
    return row;
  }

  async function workspaceOf(actor: Actor, workspaceId: string): Promise<void> {
    requireApiKey(actor);
    if (!(await workspaceExists(readModels, actor.organisationId, workspaceId))) throw new NotFound('workspace_not_found', 'workspace not found');
  }

  const attemptBody = (r: Awaited<ReturnType<WebhookQueue['attempts']>>['items'][number]): WebhookDeliveryAttempt => ({
    delivery_id: r.delivery_id, event_id: r.event_id, event_type: r.event_type, attempt: r.attempt, attempted_at: iso(r.attempted_at) ?? '',
    duration_ms: r.duration_ms, http_status: r.http_status, outcome: r.outcome, next_retry_at: iso(r.next_retry_at),
  });

  /** The per-endpoint routes, under /connect/webhooks/{id} and under /workspaces/{ws}/webhooks/{id}. */
  function endpointRoutes(base: string, tag: string, workspace: boolean): Route[] {
    const params = workspace ? WorkspaceWebhookParams : WebhookParams;
    const ws = (p: { webhook_id: string } | { webhook_id: string; workspace_id: string }) => ('workspace_id' in p ? p.workspace_id : null);
    const op = (name: string) => (workspace ? `${name}ForWorkspace` : name);
    const eventParams = workspace ? WorkspaceWebhookEventParams : WebhookEventParams;
    return [
      defineRoute({
        method: 'PATCH', path: `${base}/{webhook_id}`, operationId: op('updateWebhook'), tags: [tag], auth: 'api', permission: 'webhooks.manage', params,
        summary: 'Change an endpoint\'s url, events, description or is_active', description: UPDATE_RULES, body: WebhookUpdate, headerDocs: [IF_MATCH],
        responses: {
          200: { description: 'the endpoint as it now is', schema: Webhook, headers: [ETAG_HEADER] }, 401: wrongCredential, 403: forbidden, 404: notFound,
          409: { description: '`webhook_limit_reached`: turning it on again would make 11 active endpoints', schema: ErrorBody },
          412: { description: '`version_mismatch`: the endpoint changed since the version in If-Match (carries current_version)', schema: ErrorBody },
          422: { description: 'request body errors, or `webhook_url_not_allowed` ({detail: {error, message, reason}}: the reason in general terms, never an address)' },
        },
        async handle({ params: p, body, actor, requestId, ifMatch }) {
          await endpointOf(actor, p.webhook_id, ws(p));
          const changed = await updateEndpoint(deps, { actor, requestId, endpointId: p.webhook_id, changes: body, expectedVersion: ifMatch });
          await settled(changed);
          const hook = fromState(changed.endpoint);
          return { status: 200, body: hook, headers: etag(hook) };
        },
      }),
      defineRoute({
        method: 'GET', path: `${base}/{webhook_id}/events`, operationId: op('listWebhookEvents'), tags: [tag], auth: 'api', permission: 'webhooks.manage', params,
        summary: 'Events sent to this endpoint, newest first, with their delivery state', description: EVENTS_LOG, query: PagingQuery,
        responses: { 200: { description: 'one page of events', schema: WebhookEventList }, 401: wrongCredential, 403: forbidden, 404: notFound },
        async handle({ params: p, actor, query }) {
          await endpointOf(actor, p.webhook_id, ws(p));
          return { status: 200, body: listPage(await queue.events(p.webhook_id, pageRequest(query)), query, eventRecord) };
        },
      }),
      // a repeat under the same Idempotency-Key answers the first resend instead of a 409 for the round it queued
      idempotent(deps, defineRoute({
        method: 'POST', path: `${base}/{webhook_id}/events/{event_id}/resend`, operationId: op('resendWebhookEvent'), tags: [tag], auth: 'api', permission: 'webhooks.manage',
        params: eventParams, summary: 'Send a delivered or dropped event again (same event id, new delivery id)', description: RESEND_RULES,
        responses: {
          202: { description: 'queued for delivery', schema: WebhookResendQueued }, 401: wrongCredential, 403: forbidden,
          404: { description: '`webhook_not_found`, or `webhook_event_not_found`: this endpoint was not sent that event', schema: ErrorBody },
          409: { description: '`webhook_event_not_resendable`: attempts are still to come (state `retrying`); `webhook_inactive`: the endpoint is deactivated', schema: ErrorBody },
        },
        async handle({ params: p, actor }) {
          const endpoint = await endpointOf(actor, p.webhook_id, ws(p));
          const queued = await resendEvent({ queue, clock: deps.clock, queued: deps.queued }, endpoint, p.event_id);
          return { status: 202, body: { webhook_id: p.webhook_id, event: eventRecord(queued) } };
        },
      })),
      defineRoute({
        method: 'DELETE', path: `${base}/{webhook_id}`, operationId: op('deleteWebhook'), tags: [tag], auth: 'api', permission: 'webhooks.manage', params,
        summary: 'Deactivate a webhook endpoint (soft: its record and deliveries stay readable)',
        description: 'Nothing more is delivered to it, queued retries included. Deleting again answers the same. It no longer counts toward the 10.',
        responses: { 200: { description: 'the endpoint, `is_active: false`', schema: Webhook }, 401: wrongCredential, 403: forbidden, 404: notFound },
        async handle({ params: p, actor, requestId }) {
          await endpointOf(actor, p.webhook_id, ws(p));
          const changed = await deactivateEndpoint(deps, { actor, requestId, endpointId: p.webhook_id });
          await settled(changed);
          return { status: 200, body: fromState(changed.endpoint) };
        },
      }),
      idempotent(deps, defineRoute({
        method: 'POST', path: `${base}/{webhook_id}/rotate-secret`, operationId: op('rotateWebhookSecret'), tags: [tag], auth: 'api', permission: 'webhooks.manage', params,
        summary: 'Make a new signing secret (shown once)',
        description: 'The old secret keeps signing beside the new one for 24 hours: svc-signature then carries two v1 values (new first), so a consumer may switch at its own pace. X-Webhook-Signature (legacy) uses the new secret at once.',
        responses: { 200: { description: 'the endpoint with its new `secret`', schema: WebhookWithSecret }, 401: wrongCredential, 403: forbidden, 404: notFound, 409: inactive },
        async handle({ params: p, actor, requestId }) {
          await endpointOf(actor, p.webhook_id, ws(p));
          const changed = await rotateEndpointSecret(deps, { actor, requestId, endpointId: p.webhook_id });
          await settled(changed);
          return { status: 200, body: { ...fromState(changed.endpoint), secret: changed.secret ?? '' } };
        },
      }), { secretFields: ['secret'] }),
      // a repeat under the same Idempotency-Key answers the first ping; one resumed after a crash may ping twice, which is harmless
      idempotent(deps, defineRoute({
        method: 'POST', path: `${base}/{webhook_id}/test`, operationId: op('testWebhook'), tags: [tag], auth: 'api', permission: 'webhooks.manage', params,
        summary: 'Fire a synthetic test.ping at this endpoint',
        description: 'Through the same pipeline as every event: signed, retried on failure by the same schedule, and recorded in deliveries. Whatever the endpoint subscribes to.',
        responses: { 202: { description: 'queued for delivery', schema: WebhookTestFired }, 401: wrongCredential, 403: forbidden, 404: notFound, 409: inactive },
        async handle({ params: p, actor, requestId }) {
          await endpointOf(actor, p.webhook_id, ws(p));
          const fired = await requestTestPing(deps, { actor, requestId, endpointId: p.webhook_id });
          return { status: 202, body: { webhook_id: p.webhook_id, event_id: testPingEventId(fired.pingId), event: 'test.ping' as const } };
        },
      })),
      defineRoute({
        method: 'GET', path: `${base}/{webhook_id}/deliveries`, operationId: op('listWebhookDeliveries'), tags: [tag], auth: 'api', permission: 'webhooks.manage', params,
        summary: 'Delivery attempts, newest first (one row per attempt): the last 50 by default',
        description: 'The spec\'s "last 50 delivery attempts" is the first page at this list\'s default page_size of 50; later pages go back to what is kept (30 days).',
        query: DeliveriesQuery,
        responses: { 200: { description: 'attempts', schema: WebhookDeliveryList }, 401: wrongCredential, 403: forbidden, 404: notFound },
        async handle({ params: p, actor, query }) {
          await endpointOf(actor, p.webhook_id, ws(p));
          return { status: 200, body: listPage(await queue.attempts(p.webhook_id, pageRequest(query)), query, attemptBody) };
        },
      }),
    ];
  }

  const created = (changed: EndpointChanged) => ({
    status: 201,
    body: { ...fromState(changed.endpoint), secret: changed.secret ?? '' },
    headers: { location: `${API_PREFIX}/connect/webhooks/${changed.endpoint.endpoint_id}` },
  });

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/connect/webhooks', operationId: 'createWebhook', tags: ['webhooks'], auth: 'api', permission: 'webhooks.manage',
      summary: 'Register a webhook endpoint for the whole organisation', description: `${SCOPE} ${CREATE_RULES}`, body: WebhookCreate,
      responses: {
        201: { description: 'the endpoint with its `whsec_` secret, once', schema: WebhookWithSecret, headers: [LOCATION_HEADER] }, 401: wrongCredential, 403: forbidden,
        409: { description: '`webhook_limit_reached`: 10 active endpoints already', schema: ErrorBody },
        422: { description: 'request body errors, or `webhook_url_not_allowed` ({detail: {error, message, reason}}: the reason in general terms, never an address)' },
      },
      async handle({ body, actor, requestId }) {
        const changed = await registerEndpoint(deps, { actor, requestId, workspaceId: null, url: body.url, events: body.events ?? null, description: body.description ?? null });
        await settled(changed);
        return created(changed);
      },
    }), { secretFields: ['secret'], recover: async () => null }),
    defineRoute({
      method: 'GET', path: '/connect/webhooks', operationId: 'listWebhooks', tags: ['webhooks'], auth: 'api', permission: 'webhooks.manage',
      summary: 'The organisation\'s webhook endpoints (workspace ones too), without secrets', description: SCOPE,
      query: PagingQuery,
      responses: { 200: { description: 'oldest first, deactivated ones included', schema: WebhookList }, 401: wrongCredential, 403: forbidden },
      async handle({ actor, query }) {
        requireApiKey(actor);
        return { status: 200, body: listPage(await listWebhookEndpoints(readModels, actor.organisationId, null, pageRequest(query)), query, fromRow) };
      },
    }),
    ...endpointRoutes('/connect/webhooks', 'webhooks', false),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/workspaces/{workspace_id}/webhooks', operationId: 'createWorkspaceWebhook', tags: ['webhooks'], auth: 'api', permission: 'webhooks.manage',
      summary: 'Register a webhook endpoint firing for every company of a workspace', description: `${WORKSPACE_SCOPE} ${CREATE_RULES}`,
      params: WorkspaceParams, body: WebhookCreate,
      responses: {
        201: { description: 'the endpoint with its `whsec_` secret, once', schema: WebhookWithSecret, headers: [LOCATION_HEADER] }, 401: wrongCredential, 403: forbidden,
        404: { description: '`workspace_not_found`', schema: ErrorBody },
        409: { description: '`webhook_limit_reached`: 10 active endpoints already in the organisation', schema: ErrorBody },
        422: { description: 'request body errors, or `webhook_url_not_allowed`' },
      },
      async handle({ params, body, actor, requestId }) {
        // registerEndpoint checks the workspace is the organisation's (404 workspace_not_found)
        const changed = await registerEndpoint(deps, {
          actor, requestId, workspaceId: params.workspace_id, url: body.url, events: body.events ?? null, description: body.description ?? null,
        });
        await settled(changed);
        return created(changed);
      },
    }), { secretFields: ['secret'], recover: async () => null }),
    defineRoute({
      method: 'GET', path: '/workspaces/{workspace_id}/webhooks', operationId: 'listWorkspaceWebhooks', tags: ['webhooks'], auth: 'api', permission: 'webhooks.manage',
      summary: 'The workspace\'s webhook endpoints, without secrets', description: WORKSPACE_SCOPE, params: WorkspaceParams, query: PagingQuery,
      responses: { 200: { description: 'oldest first, deactivated ones included', schema: WebhookList }, 401: wrongCredential, 403: forbidden, 404: { description: '`workspace_not_found`', schema: ErrorBody } },
      async handle({ params, actor, query }) {
        await workspaceOf(actor, params.workspace_id);
        return { status: 200, body: listPage(await listWebhookEndpoints(readModels, actor.organisationId, params.workspace_id, pageRequest(query)), query, fromRow) };
      },
    }),
    ...endpointRoutes('/workspaces/{workspace_id}/webhooks', 'webhooks', true),
  ];
}
