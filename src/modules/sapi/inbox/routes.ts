import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { SapiRefusal } from '../../../../commands/sapi/errors.ts';
import { PARTICIPANT_HEADER, requireParticipantHeader } from '../../../../commands/sapi/participant.ts';
import { requireScope } from '../../../../commands/sapi/scopes.ts';
import {
  INBOX_DEFAULT_STATUS, INBOX_LIMIT, INBOX_STATUSES, documentNotFound, inboxRevisionOf, isInboxHandle, sapiInboxDecider,
} from '../../../../commands/sapi/inbox.ts';
import { SapiErrorBody } from '../../../../schemas/sapi/errors.ts';
import { sapiInboxStream } from '../../../../events/sapi-inbox.ts';
import { SAPI_INBOX, getInboxDocument, listInbox, type InboxDocument, type InboxItem } from '../../../../projections/sapi-inbox/queries.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { readCurrent } from '../../../platform/readmodel/current-read.ts';
import type { SapiDeps } from '../deps.ts';
import { defineSapiRoute, type SapiActor, type SapiRoute } from '../../../doors/sapi/route.ts';
import { issuePageToken, readPageToken } from './page-token.ts';

const Status = Type.Union(INBOX_STATUSES.map((s) => Type.Literal(s)));
const Metadata = {
  documentTypeId: Type.String({ description: 'Peppol document type identifier (SBDH DOCUMENTID)' }),
  processId: Type.String({ description: 'Peppol process identifier (SBDH PROCESSID)' }),
  senderParticipantId: Type.String(),
  receiverParticipantId: Type.String({ description: "this client's participant" }),
  creationDateTime: Type.String({ format: 'date-time', description: 'when the sender made the message (SBDH CreationDateAndTime)' }),
};
const DocumentId = Type.String({ description: 'the inbox handle, svc_sapi_in_…: not the sender\'s own number (that is metadata.senderDocumentId in the detail)' });

const InboxListItem = Type.Object({
  documentId: DocumentId, ...Metadata, status: Status, receivedAt: Type.String({ format: 'date-time' }),
}, { $id: 'SapiInboxItem', title: 'SapiInboxItem', description: 'sapi-sk.md, Inbound list item: flat' });

const InboxList = Type.Object({
  documents: Type.Array(InboxListItem),
  nextPageToken: Type.Union([Type.String(), Type.Null()], { description: 'pass as pageToken for the next page; null on the last page. Opaque, signed, valid 24 h, for this participant only' }),
});

const InboxDetail = Type.Object({
  documentId: DocumentId,
  metadata: Type.Object({
    documentId: DocumentId, ...Metadata,
    senderDocumentId: Type.String({ description: "the sender's own document number (the UBL cbc:ID)" }),
  }),
  payload: Type.String({ description: 'the UBL document byte for byte as the sender put it in the Peppol envelope (after the UTF-8 XML declaration)' }),
  payloadFormat: Type.Literal('XML'),
  payloadEncoding: Type.Literal('UTF-8'),
  checksum: Type.String({ description: 'lowercase SHA-256 hex of the payload bytes' }),
  status: Status,
  receivedAt: Type.String({ format: 'date-time' }),
  acknowledgedDateTime: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null until acknowledged' }),
}, { $id: 'SapiInboxDocument', title: 'SapiInboxDocument' });

const Acknowledged = Type.Object({
  documentId: DocumentId, status: Type.Literal('ACKNOWLEDGED'), acknowledgedDateTime: Type.String({ format: 'date-time', description: 'the first acknowledgement\'s; a repeat keeps it' }),
});

const DocumentParams = Type.Object({ documentId: Type.String({ maxLength: 200 }) });
const participantHeader = [{ name: PARTICIPANT_HEADER, description: 'required: the participant the credentials are locked to', schema: Type.String(), required: true }];
const refusal = (description: string) => ({ description, schema: SapiErrorBody });
const refusals = {
  400: refusal('SAPI-VAL-001: a missing participant header, a bad query, a tampered or foreign pageToken'),
  401: refusal('SAPI-AUTH-001'),
  403: refusal('SAPI-AUTH-SCOPE (needs document:receive), SAPI-AUTH-PARTICIPANT'),
};

const listItem = (d: InboxItem) => ({
  documentId: d.document_id, documentTypeId: d.document_type_id, processId: d.process_id, senderParticipantId: d.sender_participant_id,
  receiverParticipantId: d.receiver_participant_id, creationDateTime: d.creation_date_time, status: d.status, receivedAt: d.received_at,
});

/** The inbox's checks, in order: the token's scope, then the participant header. */
function admit(actor: SapiActor, headers: Record<string, string | undefined>): void {
  requireScope(actor.scopes, 'document:receive');
  requireParticipantHeader(actor.participantId, headers[PARTICIPANT_HEADER.toLowerCase()]);
}

/** GET /document/receive, GET /document/receive/{documentId}, POST …/acknowledge. */
export function inboxRoutes(deps: SapiDeps): SapiRoute[] {
  const { readModels, clock, projections, config } = deps;
  /**
   * The company's document as its stream stands (readCurrent): one received or acknowledged a
   * moment ago, through another instance too, whose read model does not show it yet, is waited for
   * (a client that learnt the handle from invoice.received can be that quick); still behind, it is
   * SAPI-UNAVAILABLE (retryable), never SAPI-DOC-NOT-FOUND or RECEIVED for an acknowledged one.
   */
  const find = async (actor: SapiActor, documentId: string): Promise<InboxDocument> => {
    if (!isInboxHandle(documentId)) throw documentNotFound(documentId);
    const stream = sapiInboxStream(documentId);
    const found = await readCurrent(deps, {
      stream, projectors: [SAPI_INBOX], resource: 'document',
      read: () => getInboxDocument(readModels, actor.companyId, documentId),
      versionOf: (d) => (d ? inboxRevisionOf(d.status) : undefined),
      visible: async () => (await deps.store.readStream(stream))[0]?.data.company_id === actor.companyId,
    });
    if (!found) throw documentNotFound(documentId);
    return found;
  };
  return [
    defineSapiRoute({
      method: 'GET', path: '/document/receive', operationId: 'sapiListInbound', tags: ['inbox'], auth: 'api',
      summary: 'Inbound documents of this participant, oldest first, one status at a time',
      description: `Keyset pages: stable while documents arrive (new ones join the end). limit ${INBOX_LIMIT.min}-${INBOX_LIMIT.max}, default ${INBOX_LIMIT.default}; status default ${INBOX_DEFAULT_STATUS} (with a pageToken, the token's). A pageToken that was altered, expired (24 h) or issued to another participant is SAPI-VAL-001.`,
      query: Type.Object({
        limit: Type.Integer({ minimum: INBOX_LIMIT.min, maximum: INBOX_LIMIT.max, default: INBOX_LIMIT.default }),
        pageToken: Type.Optional(Type.String({ maxLength: 4096 })),
        status: Type.Optional(Status),
      }),
      headerDocs: participantHeader,
      responses: { 200: { description: 'one page', schema: InboxList }, ...refusals },
      async handle({ query, actor, headers }) {
        admit(actor, headers);
        const ring = await deps.identity.ring();
        const cursor = query.pageToken === undefined ? null : await readPageToken(ring, query.pageToken, actor.companyId, clock.now());
        if (cursor && query.status !== undefined && query.status !== cursor.status) {
          throw new SapiRefusal('SAPI-VAL-001', 'the pageToken lists another status', [{ field: 'status', issue: `the pageToken lists ${cursor.status}` }]);
        }
        const status = cursor?.status ?? query.status ?? INBOX_DEFAULT_STATUS;
        const page = await listInbox(readModels, actor.companyId, status, cursor?.after ?? null, query.limit);
        const last = page.items[page.items.length - 1];
        const nextPageToken = page.more && last ? await issuePageToken(ring, { companyId: actor.companyId, status, after: last.position }, clock.now()) : null;
        return { status: 200, body: { documents: page.items.map(listItem), nextPageToken } };
      },
    }),
    defineSapiRoute({
      method: 'GET', path: '/document/receive/{documentId}', operationId: 'sapiGetInbound', tags: ['inbox'], auth: 'api',
      summary: 'One inbound document: its metadata, status, and the UBL byte for byte',
      params: DocumentParams, headerDocs: participantHeader,
      responses: {
        200: { description: 'the document', schema: InboxDetail }, ...refusals, 404: refusal('SAPI-DOC-NOT-FOUND: unknown, or another participant\'s'),
        503: refusal('SAPI-UNAVAILABLE (retryable, Retry-After): the document was received or acknowledged, but its read model has not shown that within the read-your-writes bound'),
      },
      async handle({ params, actor, headers }) {
        admit(actor, headers);
        const d = await find(actor, params.documentId);
        return {
          status: 200,
          body: {
            documentId: d.document_id,
            metadata: {
              documentId: d.document_id, documentTypeId: d.document_type_id, processId: d.process_id, senderParticipantId: d.sender_participant_id,
              receiverParticipantId: d.receiver_participant_id, creationDateTime: d.creation_date_time, senderDocumentId: d.sender_document_id,
            },
            payload: d.payload, payloadFormat: 'XML', payloadEncoding: 'UTF-8', checksum: createHash('sha256').update(d.payload, 'utf8').digest('hex'),
            status: d.status, receivedAt: d.received_at, acknowledgedDateTime: d.acknowledged_at,
          },
        };
      },
    }),
    defineSapiRoute({
      method: 'POST', path: '/document/receive/{documentId}/acknowledge', operationId: 'sapiAcknowledgeInbound', tags: ['inbox'], auth: 'api',
      summary: 'Mark an inbound document taken: it moves from RECEIVED to ACKNOWLEDGED; a repeat keeps the first timestamp',
      params: DocumentParams, headerDocs: participantHeader, bodyOptional: true,
      responses: { 200: { description: 'acknowledged', schema: Acknowledged }, ...refusals, 404: refusal('SAPI-DOC-NOT-FOUND: unknown, or another participant\'s') },
      async handle({ params, actor, headers, requestId }) {
        admit(actor, headers);
        if (!isInboxHandle(params.documentId)) throw documentNotFound(params.documentId);
        const handled = await handleCommand(deps, sapiInboxStream(params.documentId), sapiInboxDecider, {
          type: 'AcknowledgeInboxDocument', document_id: params.documentId, company_id: actor.companyId, client_id: actor.clientId, at: clock.now().toISOString(),
        }, {
          metadata: { causationId: requestId, correlationId: requestId, actor: { type: 'system', id: 'sapi-inbox', organisationId: actor.organisationId }, sapi_client_id: actor.clientId },
          expected: { retry: { onVersionConflict: 3 } },
        });
        // read-your-writes: the list right after shows it ACKNOWLEDGED
        if (handled.position) await projections.caughtUp(handled.position, config.readYourWritesTimeoutMs, [SAPI_INBOX]);
        const state = handled.state;
        if (state.status !== 'ACKNOWLEDGED' || state.acknowledgedAt === null) throw documentNotFound(params.documentId);
        return { status: 200, body: { documentId: state.documentId, status: 'ACKNOWLEDGED', acknowledgedDateTime: state.acknowledgedAt } };
      },
    }),
  ];
}
