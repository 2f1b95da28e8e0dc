import type { SapiInboxDocumentReceived, SapiInboxEvent } from '../../events/sapi-inbox.ts';
import type { Decider } from '../shared/decider.ts';
import { stableUuid } from '../shared/stable-id.ts';
import { SapiRefusal } from './errors.ts';

/** sapi-sk.md, Inbound list item: the inbox handle's prefix. */
const INBOX_HANDLE_PREFIX = 'svc_sapi_in_';
const HANDLE = /^svc_sapi_in_[0-9a-f]{32}$/;

/**
 * The inbox handle of the message `messageId` (SBDH InstanceIdentifier) received for `companyId`:
 * a function of the two, like the native inbound invoice's id, so a repeated receipt is one document.
 */
export const inboxHandle = (companyId: string, messageId: string): string =>
  `${INBOX_HANDLE_PREFIX}${stableUuid('sapi-inbox', companyId, messageId).replaceAll('-', '')}`;

export const isInboxHandle = (value: string): boolean => HANDLE.test(value);

/** The list's page size (GET /document/receive?limit): 1 to 100, 50 when not given. */
export const INBOX_LIMIT = { min: 1, max: 100, default: 50 } as const;
export const INBOX_STATUSES = ['RECEIVED', 'ACKNOWLEDGED'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
/** Without `status` the list shows what is still to be taken: RECEIVED. */
export const INBOX_DEFAULT_STATUS: InboxStatus = 'RECEIVED';

/**
 * The revision of the document's stream that a status shows: it is received once (revision 0) and
 * acknowledged at most once after (1); the decider writes nothing else there.
 */
export const inboxRevisionOf = (status: InboxStatus): number => (status === 'ACKNOWLEDGED' ? 1 : 0);

export const documentNotFound = (documentId: string) =>
  new SapiRefusal('SAPI-DOC-NOT-FOUND', `no inbound document ${documentId} for this participant`, [{ field: 'documentId', issue: 'not found' }]);

export type SapiInboxCommand =
  | { type: 'ReceiveInboxDocument'; data: SapiInboxDocumentReceived['data'] }
  | { type: 'AcknowledgeInboxDocument'; document_id: string; company_id: string; client_id: string; at: string };

type SapiInboxState =
  | { status: 'none' }
  | { status: InboxStatus; documentId: string; companyId: string; receivedAt: string; acknowledgedAt: string | null };

/**
 * One inbound document: received once (the same message again decides nothing), acknowledged by a
 * SAPI client of its company once (a repeat decides nothing, so the first timestamp stays). Another
 * company's document, or none, is SAPI-DOC-NOT-FOUND: its existence is not shown.
 */
export const sapiInboxDecider: Decider<SapiInboxCommand, SapiInboxEvent, SapiInboxState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'ReceiveInboxDocument':
        return state.status === 'none' ? [{ type: 'SapiInboxDocumentReceived', data: command.data }] : [];
      case 'AcknowledgeInboxDocument':
        if (state.status === 'none' || state.companyId !== command.company_id) throw documentNotFound(command.document_id);
        if (state.status === 'ACKNOWLEDGED') return [];
        return [{
          type: 'SapiInboxDocumentAcknowledged',
          data: { document_id: state.documentId, company_id: state.companyId, acknowledged_by: command.client_id, acknowledged_at: command.at },
        }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'SapiInboxDocumentReceived':
        return { status: 'RECEIVED', documentId: event.data.document_id, companyId: event.data.company_id, receivedAt: event.data.received_at, acknowledgedAt: null };
      case 'SapiInboxDocumentAcknowledged':
        return state.status === 'none' ? state : { ...state, status: 'ACKNOWLEDGED', acknowledgedAt: event.data.acknowledged_at };
    }
  },
};
