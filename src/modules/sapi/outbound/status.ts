import { Type } from '@sinclair/typebox';
import { SapiRefusal } from '../../../../commands/sapi/errors.ts';
import { PARTICIPANT_HEADER, requireParticipantHeader } from '../../../../commands/sapi/participant.ts';
import { requireScope } from '../../../../commands/sapi/scopes.ts';
import type { SapiDocumentMls, SapiDocumentView } from '../../../../commands/sapi/document.ts';
import { sapiReceiptOf } from '../../../../commands/sapi/document-receipt.ts';
import { documentIdOf, sapiDocumentStream, type SapiDocumentAccepted } from '../../../../events/sapi-documents.ts';
import { RECEIPT_HEADERS, receiptAnswer } from '../../delivery/index.ts';
import { SAPI_DOCUMENTS, findSapiDocument } from '../../../../projections/sapi-documents/queries.ts';
import { readCurrent } from '../../../platform/readmodel/current-read.ts';
import { SapiErrorBody } from '../../../../schemas/sapi/errors.ts';
import { SapiStatusResponse } from '../../../../schemas/sapi/outbound.ts';
import type { SapiDeps } from '../deps.ts';
import { defineSapiRoute, type SapiRoute } from '../../../doors/sapi/route.ts';
import { acceptedAlready } from './send.ts';

/** The status answer of a document (sapi-sk.md, Status response). */
export function statusOf(view: SapiDocumentView, now: Date): SapiStatusResponse {
  return {
    providerDocumentId: view.provider_document_id,
    clientDocumentId: view.client_document_id,
    status: view.status,
    direction: 'outbound',
    peppolMessageId: view.peppol_message_id,
    fs: {
      status: view.fs.status, submissionId: view.fs.submission_id, reportDeadline: view.fs.report_deadline, acknowledgedAt: view.fs.acknowledged_at,
      errorMessage: view.fs.error_message,
    },
    mls: mlsOf(view.mls ?? null),
    updatedAt: view.updated_at,
    timestamp: now.toISOString(),
  };
}

/** The MLS beside the status, camelCase as the rest of SAPI (docs/sapi.md, Status). */
function mlsOf(mls: SapiDocumentMls | null): SapiStatusResponse['mls'] {
  if (!mls) return null;
  return {
    responseCode: mls.response_code, description: mls.description,
    reasons: mls.issues.map((i) => ({ location: i.location, description: i.description, reasonCode: i.reason })), receivedAt: mls.received_at,
  };
}

const notFound = (id: string) =>
  new SapiRefusal('SAPI-DOC-NOT-FOUND', 'no such document for this client', [{ field: 'providerDocumentId', issue: `unknown: ${id.slice(0, 80)}` }]);

export function statusRoute(deps: SapiDeps): SapiRoute {
  return defineSapiRoute({
    method: 'GET',
    path: '/document/status/{providerDocumentId}',
    operationId: 'sapiDocumentStatus',
    summary: "An outbound document's status: its Peppol leg and its FS filing",
    description: 'Scope document:send and X-Peppol-Participant-Id. A document this client did not send (unknown, or another client\'s) is SAPI-DOC-NOT-FOUND. fs.reportDeadline is the UBL IssueDate + 5 calendar days; mls is the receiving Access Point\'s Message Level Status once one came (docs/sapi.md, Status).',
    tags: ['SAPI documents'],
    auth: 'api',
    params: Type.Object({ providerDocumentId: Type.String({ maxLength: 200 }) }),
    headerDocs: [{ name: PARTICIPANT_HEADER, description: "Required; the participant the credentials are locked to.", schema: Type.String(), required: true }],
    responses: {
      200: { description: 'the document', schema: SapiStatusResponse },
      400: { description: 'SAPI-VAL-001: the participant header is missing', schema: SapiErrorBody },
      403: { description: 'SAPI-AUTH-SCOPE, SAPI-AUTH-PARTICIPANT', schema: SapiErrorBody },
      404: { description: 'SAPI-DOC-NOT-FOUND', schema: SapiErrorBody },
      503: { description: 'SAPI-UNAVAILABLE (retryable, Retry-After): the document is stored but its read model has not shown it within the read-your-writes bound, or the database is out of reach', schema: SapiErrorBody },
    },
    async handle(req) {
      const actor = req.actor;
      const documentId = documentAsked(actor, req.headers[PARTICIPANT_HEADER.toLowerCase()], req.params.providerDocumentId);
      // a document accepted on another instance is shown, or refused 503 SAPI-UNAVAILABLE while its
      // read model is behind, never 404. Once shown, its later steps come from the reactors, not
      // from this client's commands: a document found is current enough, and a poll never waits on them.
      const view = await readCurrent(deps, {
        stream: sapiDocumentStream(documentId), projectors: [SAPI_DOCUMENTS], resource: 'document',
        read: () => findSapiDocument(deps.readModels, actor.clientId, req.params.providerDocumentId),
        foundIsCurrent: true,
        visible: async () => (await acceptedAlready(deps, documentId))?.client_id === actor.clientId,
      });
      if (!view) throw notFound(req.params.providerDocumentId);
      return { status: 200, body: statusOf(view, deps.clock.now()) };
    },
  });
}

/** What both document routes check first: the scope, the participant header, and that the id can name a document (else SAPI-DOC-NOT-FOUND). */
function documentAsked(actor: { scopes: readonly string[]; participantId: string }, participantHeader: string | undefined, providerDocumentId: string): string {
  requireScope(actor.scopes, 'document:send');
  requireParticipantHeader(actor.participantId, participantHeader);
  const documentId = documentIdOf(providerDocumentId);
  if (!documentId) throw notFound(providerDocumentId);
  return documentId;
}

/**
 * For auditors (issue 38, an extension of sapi-sk.md): the signed AS4 receipt the receiving Access
 * Point returned for a SENT document, read from the document's stream, with the status route's
 * scope, participant header and ownership. No receipt (not SENT yet, the sandbox): SAPI-DOC-NOT-FOUND.
 */
export function receiptRoute(deps: SapiDeps): SapiRoute {
  return defineSapiRoute({
    method: 'GET',
    path: '/document/status/{providerDocumentId}/peppol-receipt',
    operationId: 'sapiDocumentPeppolReceipt',
    summary: 'For auditors: the signed AS4 receipt of a SENT document (an extension of SAPI-SK)',
    description: [
      'Scope document:send and X-Peppol-Participant-Id, as for the status. The receiving Access Point\'s signed ebMS eb:Receipt, the SOAP',
      'envelope exactly as it arrived (application/xml, UTF-8); headers name the AS4 message, the Peppol message and the receiving',
      'Access Point (docs/sapi.md, Status). A document this client did not send, or one with no receipt (not SENT yet, or sent on the',
      'sandbox network), is SAPI-DOC-NOT-FOUND.',
    ].join(' '),
    tags: ['SAPI documents'],
    auth: 'api',
    params: Type.Object({ providerDocumentId: Type.String({ maxLength: 200 }) }),
    headerDocs: [{ name: PARTICIPANT_HEADER, description: "Required; the participant the credentials are locked to.", schema: Type.String(), required: true }],
    responses: {
      200: { description: 'the signed eb:Receipt SOAP envelope as received', schema: Type.String(), mediaType: 'application/xml', headers: RECEIPT_HEADERS },
      400: { description: 'SAPI-VAL-001: the participant header is missing', schema: SapiErrorBody },
      403: { description: 'SAPI-AUTH-SCOPE, SAPI-AUTH-PARTICIPANT', schema: SapiErrorBody },
      404: { description: 'SAPI-DOC-NOT-FOUND: no such document of this client, or no AS4 receipt for it', schema: SapiErrorBody },
    },
    async handle(req) {
      const actor = req.actor;
      const documentId = documentAsked(actor, req.headers[PARTICIPANT_HEADER.toLowerCase()], req.params.providerDocumentId);
      const events = await deps.store.readStream(sapiDocumentStream(documentId));
      const accepted = events[0]?.type === 'SapiDocumentAccepted' ? (events[0].data as SapiDocumentAccepted['data']) : null;
      if (accepted?.client_id !== actor.clientId) throw notFound(req.params.providerDocumentId);
      return receiptAnswer(sapiReceiptOf(events));
    },
  });
}
