import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { IN_PROGRESS_RETRY_AFTER_S, LEASE_MS, type StoredAnswer } from '../../../commands/idempotency/decider.ts';
import { IDEMPOTENCY_HEADER, KEY_MAX_LENGTH, requestFingerprint } from '../../../commands/idempotency/key.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { ErrorBody } from '../../../schemas/common/index.ts';
import { runIdempotently, type Outcome } from './idempotency.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import type { Core } from '../../platform/core.ts';
import { WrongExpectedRevision } from '../../platform/eventstore/port.ts';
import { nativeErrors } from '../../doors/native/errors.ts';
import { TooManyRequests, type FailedRequest, type RouteResult } from '../../platform/http/index.ts';
import type { Route } from '../../doors/native/route.ts';
import type { RouteHeaderDoc, RouteResponseDoc } from '../../platform/http/route.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'>;
/** what the handler did: answered, or refused (rethrown once its answer is kept) */
type Ran = { answered: RouteResult } | { refused: unknown };

/**
 * A request resumed after its first run died (or failed) may have had its effect: the answer
 * from what that run wrote, found by the resource id its first minted id was, or null to run
 * the handler again.
 */
export type Recover = (request: { params: Record<string, string>; actor: Actor; resourceId: string }) => Promise<RouteResult | null>;

interface IdempotentOptions {
  /** answer fields shown once (a new API key, a client secret): never stored, so never replayed */
  secretFields?: string[];
  /**
   * Given for creates and sends, whose first minted id is the resource they make: the request
   * runs with that id derived from the key (see withResourceSeed), and a resumed one looks for it.
   * Without it a resumed request simply runs again (mark-sent: marking again changes nothing).
   */
  recover?: Recover;
}

const REPLAYED_DOC: RouteHeaderDoc = { name: 'Idempotent-Replayed', description: '`true` on the first answer sent again for a repeated Idempotency-Key', schema: Type.String({ enum: ['true'] }) };

const HEADER_DOC: RouteHeaderDoc = {
  name: 'Idempotency-Key',
  description: [
    'Optional; 1-255 printable ASCII characters, unique per request (a UUID). Kept 24 hours per organisation.',
    'A repeat with the same key and the same body (JSON compared without regard to key order or whitespace) and path gets the first answer again',
    '(status, body, ETag and Location; `Idempotent-Replayed: true`) and changes nothing. Refusals (4xx) are kept and repeated too; after a 5xx the request runs again.',
    'The same key with another body or operation: 422 `idempotency_key_reused`. A repeat while the first request still runs: 409 `idempotency_key_in_progress` with Retry-After.',
    `A request that died after its effect (its claim unanswered for ${LEASE_MS / 1000} s) is taken over by the next repeat, which answers with what it made, never a second one.`,
  ].join(' '),
  schema: Type.String({ minLength: 1, maxLength: KEY_MAX_LENGTH, pattern: '^[\\x20-\\x7e]+$' }),
};

/**
 * A refusal the handler threw, as the native API renders it (native-errors.ts, the one renderer):
 * what a repeat gets again. Null for what is not a refusal to keep: a 5xx, a lost race (412/409 on
 * a version), a rate limit, a bug.
 */
function refusalAnswer(error: unknown, request: FailedRequest): StoredAnswer | null {
  if (error instanceof WrongExpectedRevision || error instanceof TooManyRequests) return null;
  const rendered = nativeErrors.render(error, request);
  if (!rendered || rendered.status >= 500) return null;
  return { status: rendered.status, body: rendered.body, headers: rendered.headers ?? {}, withheld: [] };
}

const secretNotReplayable = (status: number, resource: unknown) =>
  new DomainError('idempotency_key_secret_not_replayable',
    'the request with this Idempotency-Key was done (detail.resource), but its secret is shown only once and is not kept: revoke that credential and create another with a new key',
    { original_status: status, resource });

function replay(answer: StoredAnswer): RouteResult {
  if (answer.withheld.length > 0) throw secretNotReplayable(answer.status, answer.body);
  return { status: answer.status, body: answer.body, headers: { ...answer.headers, 'idempotent-replayed': 'true' } };
}

function kept(result: RouteResult, secretFields: readonly string[]): StoredAnswer | null {
  const body = result.body;
  // 5xx runs again; raw bytes are not what these routes answer, and are not kept
  if (result.status >= 500 || Buffer.isBuffer(body) || typeof body === 'string') return null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { status: result.status, body: body ?? null, headers: result.headers ?? {}, withheld: [] };
  const withheld = secretFields.filter((f) => f in body);
  const stored = Object.fromEntries(Object.entries(body).filter(([k]) => !withheld.includes(k)));
  return { status: result.status, body: stored, headers: result.headers ?? {}, withheld };
}

function documented(route: Route): Pick<Route, 'responses' | 'headerDocs'> {
  const conflict = route.responses[409];
  const inProgress = '`idempotency_key_in_progress`: a request with this Idempotency-Key is still running (Retry-After)';
  const reused = route.responses[422];
  // a repeat answers any kept status again, refusals included, marked as replayed
  const replayed = (doc: RouteResponseDoc): RouteResponseDoc => ({ ...doc, headers: [...(doc.headers ?? []), REPLAYED_DOC] });
  const responses: Route['responses'] = {
    ...route.responses,
    409: { description: conflict ? `${conflict.description}; ${inProgress}` : inProgress, schema: conflict?.schema ?? ErrorBody },
    422: { ...(reused ?? { description: 'request validation failed' }), description: `${reused?.description ?? 'request validation failed'}; \`idempotency_key_reused\` ({detail: {error, message}}): the Idempotency-Key was used for another request` },
  };
  return {
    headerDocs: [...(route.headerDocs ?? []), HEADER_DOC],
    responses: Object.fromEntries(Object.entries(responses).map(([status, doc]) => [status, replayed(doc)])),
  };
}

/** What a request's body is compared by: its JSON, or for a route that reads raw bytes (a CSV upload) their SHA-256. */
function fingerprinted(body: unknown, raw: Buffer): unknown {
  if (body !== undefined || raw.length === 0) return body;
  return { raw_sha256: createHash('sha256').update(raw).digest('hex') };
}

/**
 * The route, honouring an optional Idempotency-Key (scoped to the caller's organisation): see
 * runIdempotently for the rules and HEADER_DOC for what clients are told. Wrap every native POST
 * that creates or sends.
 */
export function idempotent(deps: Deps, route: Route, options: IdempotentOptions = {}): Route {
  const secretFields = options.secretFields ?? [];
  return {
    ...route,
    ...documented(route),
    async handle(req) {
      const key = req.headers[IDEMPOTENCY_HEADER];
      const actor = req.actor;
      if (key === undefined || !actor) return route.handle(req);
      const params = req.params as Record<string, string>;
      let outcome: Outcome<Ran>;
      try {
        outcome = await runIdempotently<Ran>(deps, {
          scope: actor.organisationId, key, operation: route.operationId, requestId: req.requestId, log: req.log,
          fingerprint: requestFingerprint({ operation: route.operationId, params, body: fingerprinted(req.body, req.rawBody) }), metadata: requestMetadata(actor, req.requestId),
        }, async ({ resourceId, resumed }) => {
          try {
            const result = (resumed && options.recover ? await options.recover({ params, actor, resourceId }) : null) ?? (await route.handle(req));
            return { result: { answered: result }, record: kept(result, secretFields) };
          } catch (error) {
            const refusal = refusalAnswer(error, { requestId: req.requestId, method: route.method, path: route.path, header: (name) => req.headers[name.toLowerCase()] ?? '' });
            if (!refusal) throw error;
            return { result: { refused: error }, record: refusal };
          }
        }, { seedResourceId: options.recover !== undefined });
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'idempotency_key_in_progress')) throw error;
        const rendered = nativeErrors.render(error, { requestId: req.requestId, method: route.method, path: route.path, header: (name) => req.headers[name.toLowerCase()] ?? '' });
        return { status: 409, body: rendered?.body, headers: { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_S) } };
      }
      if (outcome.kind === 'replayed') return replay(outcome.answer);
      if ('refused' in outcome.result) throw outcome.result.refused;
      return outcome.result.answered;
    },
  };
}

/** For routes whose answer carries a secret: a resumed request that made its credential cannot show it again. */
export const secretShownOnce = (exists: (resourceId: string) => Promise<boolean>): Recover =>
  async ({ resourceId }) => {
    if (await exists(resourceId)) throw secretNotReplayable(201, { id: resourceId });
    return null;
  };
