import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestFingerprint } from '../../../../commands/idempotency/key.ts';
import { sapiDocumentDecider } from '../../../../commands/sapi/document.ts';
import { SapiRefusal, isSapiCode, type SapiDetail } from '../../../../commands/sapi/errors.ts';
import { PARTICIPANT_HEADER, requireLockedParticipant, requireParticipantHeader } from '../../../../commands/sapi/participant.ts';
import { requireScope } from '../../../../commands/sapi/scopes.ts';
import {
  SAPI_IDEMPOTENCY_HEADER, SEND_BODY_LIMIT_BYTES, checkChecksum, checkDocumentAgainstMetadata, checkPayloadBytes, checkPayloadEncoding, checkValidation,
  participantValue, requireIdempotencyKey, type SendRequest,
} from '../../../../commands/sapi/send-request.ts';
import { DomainError } from '../../../../commands/shared/domain-error.ts';
import { providerDocumentIdOf, sapiDocumentStream, type SapiDocumentAccepted } from '../../../../events/sapi-documents.ts';
import { usageStream } from '../../../../events/usage.ts';
import { usageMonth } from '../../../../commands/limits/usage.ts';
import { planLabel } from '../../../../commands/limits/plans.ts';
import { SAPI_DOCUMENTS } from '../../../../projections/sapi-documents/queries.ts';
import { SapiSendRequest, SapiSendResponse } from '../../../../schemas/sapi/outbound.ts';
import { SapiErrorBody } from '../../../../schemas/sapi/errors.ts';
import { runIdempotently, type Outcome } from '../../idempotency/index.ts';
import type { StoredAnswer } from '../../../../commands/idempotency/decider.ts';
import type { EventMetadata } from '../../../platform/eventstore/port.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { keepDocument } from './held.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../delivery/index.ts';
import { Type } from '@sinclair/typebox';
import type { SapiDeps } from '../deps.ts';
import { sapiStatusOf } from '../../../doors/sapi/errors.ts';
import { defineSapiRoute, type SapiActor, type SapiRoute } from '../../../doors/sapi/route.ts';
import { readPayloadFacts, validationOutcome } from './payload.ts';

/** How long a repeat of a send still running waits for its answer before SAPI-IDEMPOTENCY-IN-PROGRESS. */
const IN_FLIGHT_WAIT_MS = 30_000;
const OPERATION = 'sapiSendDocument';

// a lone surrogate has no UTF-8 encoding (String.prototype.isWellFormed is not in the ES2022 lib)
const wellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

// hashes the string's UTF-8 encoding, as Buffer.from(text, 'utf8') would give it, without a copy of it first
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Who acted, on every event a SAPI request writes: the SAPI client (an OAuth-style client of its organisation). */
export const sapiMetadata = (actor: SapiActor, requestId: string): EventMetadata => ({
  causationId: requestId, correlationId: requestId, actor: { type: 'oauth_client', id: actor.clientId, organisationId: actor.organisationId }, via: 'sapi',
});

/** A refusal the same body would get again for good: kept under the key and repeated. Quota, availability and faults are not. */
const remembered = (error: unknown): error is SapiRefusal =>
  error instanceof SapiRefusal && (error.sapiCode === 'SAPI-VAL-001' || error.sapiCode === 'SAPI-VAL-CHECKSUM');

type Answer = { status: 202; body: SapiSendResponse };
type Ran = { answered: Answer } | { refused: SapiRefusal };

function replay(answer: StoredAnswer): Answer {
  if (answer.status === 202) return { status: 202, body: answer.body as SapiSendResponse };
  const refusal = answer.body as { code: string; message: string; details: SapiDetail[] };
  if (!isSapiCode(refusal.code)) throw new Error(`a kept SAPI answer with an unknown code ${refusal.code}`);
  throw new SapiRefusal(refusal.code, refusal.message, refusal.details);
}

const answerOf = (accepted: SapiDocumentAccepted['data'], timestamp: string): Answer => ({
  status: 202,
  body: { providerDocumentId: accepted.provider_document_id, status: 'ACCEPTED', receivedAt: accepted.accepted_at, timestamp },
});

/**
 * Counts the document against the organisation's month (the native counter, source sapi): at the
 * quota on a plan without overage SAPI-QUOTA-INVOICE-LIMIT (402, details: plan and limit); with
 * overage it goes on, marked. Counting the same document again is a no-op (a resumed send).
 */
async function count(deps: SapiDeps, actor: SapiActor, documentId: string, metadata: EventMetadata): Promise<boolean> {
  const plan = await deps.usage.planOf(deps.readModels, actor.organisationId);
  const at = deps.clock.now();
  try {
    const events = await deps.usage.submit(usageStream(actor.organisationId, usageMonth(at)), {
      type: 'CountInvoice', organisation_id: actor.organisationId, invoice_id: documentId, month: usageMonth(at), plan, source: 'sapi', at: at.toISOString(),
    }, metadata);
    const counted = events[0];
    return counted?.type === 'InvoiceCounted' && counted.data.overage;
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'usage_limit_exceeded')) throw error;
    throw new SapiRefusal('SAPI-QUOTA-INVOICE-LIMIT', 'the monthly invoice quota of the plan is used up', [
      { field: 'plan', issue: String(error.extra.current_plan ?? planLabel(plan)) },
      { field: 'limit', issue: String(error.extra.limit) },
    ]);
  }
}

/** The accepted document under this id (a resumed send's first run got that far; whose a status asks for). */
export async function acceptedAlready(deps: Pick<SapiDeps, 'store'>, documentId: string): Promise<SapiDocumentAccepted['data'] | null> {
  const first = (await deps.store.readStream(sapiDocumentStream(documentId)))[0];
  return first?.type === 'SapiDocumentAccepted' ? (first.data as SapiDocumentAccepted['data']) : null;
}

/**
 * The payload's encoding and size, before the key (docs/sapi.md, Sending, step 7): facts of the body
 * alone, like its shape, so a payload over 10 MB is refused before it is copied, hashed and its key
 * claimed in the store (a 10 MB payload took over a second under load when refused under the key).
 */
function checkPayload(request: SendRequest): void {
  checkPayloadEncoding(request.payloadEncoding);
  checkPayloadBytes({ wellFormed: wellFormed(request.payload), bytes: Buffer.byteLength(request.payload, 'utf8') });
}

/** Every check under the key, then the count and the document's first event (docs/sapi.md, Sending, steps 9-14). */
async function accept(deps: SapiDeps, actor: SapiActor, request: SendRequest, payloadSha256: string, documentId: string, metadata: EventMetadata): Promise<Answer> {
  checkChecksum(request.checksum, payloadSha256);
  const facts = readPayloadFacts(request.payload);
  const document = checkDocumentAgainstMetadata(request.metadata, facts, (root) => ({ documentTypeId: documentTypeFor(root), processId: BILLING_PROCESS_ID }));
  // the rules in force when the document is accepted for sending
  const report = await (await deps.validator()).validate(request.payload, { at: deps.clock.now() });
  checkValidation(validationOutcome(report), deps.config.sapiStrictValidation);

  const overage = await count(deps, actor, documentId, metadata);
  const m = request.metadata;
  const data: SapiDocumentAccepted['data'] = {
    document_id: documentId, provider_document_id: providerDocumentIdOf(documentId), client_id: actor.clientId, organisation_id: actor.organisationId,
    company_id: actor.companyId,
    metadata: {
      document_id: m.documentId, document_type_id: m.documentTypeId, process_id: m.processId, sender_participant_id: m.senderParticipantId,
      receiver_participant_id: m.receiverParticipantId, creation_date_time: m.creationDateTime,
    },
    document_root: document.root, invoice_number: document.invoiceNumber, issue_date: document.issueDate,
    country_c1: facts.supplierCountry ?? 'SK', payload: request.payload, payload_sha256: payloadSha256,
    peppol_message_id: deps.ids.next(), overage, accepted_at: deps.clock.now().toISOString(),
  };
  const handled = await handleCommand(deps, sapiDocumentStream(documentId), sapiDocumentDecider, { type: 'AcceptSapiDocument', data }, { metadata, expected: { newStream: true } });
  // the Peppol step decides on this rather than reading the payload back
  if (handled.events.length > 0) keepDocument(deps.store, documentId, { state: handled.state, revision: handled.version }, data);
  // read-your-writes: a status right after the 202 finds the document
  if (handled.position) await deps.projections.caughtUp(handled.position, deps.config.readYourWritesTimeoutMs, [SAPI_DOCUMENTS]);
  return answerOf(data, data.accepted_at);
}

/**
 * The send under its Idempotency-Key (scope: the SAPI client). The first request claims the key
 * and runs; a repeat with the same body gets the kept answer; another body is
 * SAPI-IDEMPOTENCY-CONFLICT; a repeat while the first runs waits for its answer (polling the key's
 * stream, at most IN_FLIGHT_WAIT_MS), then SAPI-IDEMPOTENCY-IN-PROGRESS. The document id is the
 * key's resource id (derived from the claim's seed), so a send resumed after a crash finds the
 * document its first run wrote instead of making a second.
 */
async function sendOnce(deps: SapiDeps, actor: SapiActor, key: string, request: SendRequest, requestId: string, log: { warn(d: object, m: string): void }): Promise<Answer> {
  const payloadSha256 = sha256(request.payload);
  // the same body: the same metadata, format, encoding (absent = UTF-8), checksum and payload bytes
  const { payload: _payload, ...rest } = request;
  void _payload;
  const fingerprint = requestFingerprint({ operation: OPERATION, params: {}, body: { ...rest, payloadEncoding: request.payloadEncoding ?? 'UTF-8', payload_sha256: payloadSha256 } });
  const metadata = sapiMetadata(actor, requestId);
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (let wait = 20; ; wait = Math.min(250, Math.ceil(wait * 1.5))) {
    let outcome: Outcome<Ran>;
    try {
      outcome = await runIdempotently<Ran>(deps, { scope: `sapi-${actor.clientId}`, key, operation: OPERATION, fingerprint, requestId, metadata, log }, async ({ resourceId, resumed }) => {
        const earlier = resumed ? await acceptedAlready(deps, resourceId) : null;
        try {
          const answered = earlier ? answerOf(earlier, deps.clock.now().toISOString()) : await accept(deps, actor, request, payloadSha256, resourceId, metadata);
          return { result: { answered }, record: { status: answered.status, body: answered.body, headers: {}, withheld: [] } };
        } catch (error) {
          if (!remembered(error)) throw error;
          return { result: { refused: error }, record: { status: sapiStatusOf[error.sapiCode], body: { code: error.sapiCode, message: error.message, details: error.details }, headers: {}, withheld: [] } };
        }
      }, { seedResourceId: false });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'idempotency_key_reused') {
        throw new SapiRefusal('SAPI-IDEMPOTENCY-CONFLICT', 'this Idempotency-Key was used for a different send in the last 24 hours; use a new key for a new document', [
          { field: SAPI_IDEMPOTENCY_HEADER, issue: 'reused with a different body' },
        ]);
      }
      if (error instanceof DomainError && error.code === 'idempotency_key_in_progress') {
        if (Date.now() + wait > deadline) {
          throw new SapiRefusal('SAPI-IDEMPOTENCY-IN-PROGRESS', 'the first send with this Idempotency-Key is still running; repeat it to get its answer', [
            { field: SAPI_IDEMPOTENCY_HEADER, issue: 'in progress' },
          ], 1);
        }
        await sleep(wait);
        continue;
      }
      throw error;
    }
    if (outcome.kind === 'replayed') return replay(outcome.answer);
    if ('refused' in outcome.result) throw outcome.result.refused;
    return outcome.result.answered;
  }
}

// both are required: the handler answers their absence with its own SAPI error
const headerDoc = (name: string, description: string) => ({ name, description, schema: Type.String(), required: true });

export function sendRoute(deps: SapiDeps): SapiRoute {
  return defineSapiRoute({
    method: 'POST',
    path: '/document/send',
    operationId: 'sapiSendDocument',
    summary: 'Send a UBL Invoice or CreditNote over Peppol, with its FS filing',
    description: [
      'Checks, in this order (docs/sapi.md, Sending): the access token; the JSON body and its shape; scope document:send;',
      'X-Peppol-Participant-Id (required, the credentials\' participant); Idempotency-Key (required, 1-255 printable ASCII);',
      'metadata.senderParticipantId (the credentials\' participant); payloadEncoding, the payload\'s bytes (at most 10 MB,',
      '1 MB = 1,048,576 bytes); then under the key, once: checksum, the XML (safe parser, Invoice or CreditNote root), metadata against the UBL,',
      'validation (XSD, CEN, Peppol, Slovak; strict: fails closed), the monthly quota. A repeat with the same key and body gets the first answer.',
    ].join(' '),
    tags: ['SAPI documents'],
    auth: 'api',
    body: SapiSendRequest,
    bodyLimitBytes: SEND_BODY_LIMIT_BYTES,
    headerDocs: [
      headerDoc(SAPI_IDEMPOTENCY_HEADER, 'Required; 1-255 printable ASCII characters, kept 24 hours per SAPI client. The same key and body: the first answer again; another body: SAPI-IDEMPOTENCY-CONFLICT.'),
      headerDoc(PARTICIPANT_HEADER, 'Required; the participant the credentials are locked to.'),
    ],
    responses: {
      202: { description: 'accepted: delivery and FS filing follow (GET /document/status/{providerDocumentId})', schema: SapiSendResponse },
      400: { description: 'SAPI-VAL-001, SAPI-VAL-CHECKSUM', schema: SapiErrorBody },
      402: { description: 'SAPI-QUOTA-INVOICE-LIMIT (details: plan, limit)', schema: SapiErrorBody },
      403: { description: 'SAPI-AUTH-SCOPE, SAPI-AUTH-PARTICIPANT', schema: SapiErrorBody },
      409: { description: 'SAPI-IDEMPOTENCY-CONFLICT; SAPI-IDEMPOTENCY-IN-PROGRESS (retryable)', schema: SapiErrorBody },
      413: { description: 'SAPI-PAYLOAD-TOO-LARGE: the JSON body is beyond 31 MB', schema: SapiErrorBody },
      503: { description: 'SAPI-VAL-VALIDATION-UNAVAILABLE (retryable)', schema: SapiErrorBody },
    },
    async handle(req) {
      const actor = req.actor;
      requireScope(actor.scopes, 'document:send');
      requireParticipantHeader(actor.participantId, req.headers[PARTICIPANT_HEADER.toLowerCase()]);
      const key = requireIdempotencyKey(req.headers[SAPI_IDEMPOTENCY_HEADER.toLowerCase()]);
      requireLockedParticipant(actor.participantId, participantValue(req.body.metadata.senderParticipantId), 'metadata.senderParticipantId');
      checkPayload(req.body);
      const answer = await sendOnce(deps, actor, key, req.body, req.requestId, req.log);
      return { status: answer.status, body: answer.body };
    },
  });
}
