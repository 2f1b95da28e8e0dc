import type { As4ReceiptRecord } from '../../events/delivery.ts';
import type { SapiDocumentAccepted, SapiDocumentEvent, SapiDocumentMlsReceived, SapiFsRejected } from '../../events/sapi-documents.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { fsVerdictDeadline, isRetried, nextAttemptAt, type AttemptFailure, type RetryPolicy } from '../invoices/delivery-retries.ts';

/** sapi-sk.md, States: the outbound document's Peppol leg. */
type SapiDocumentStatus = 'ACCEPTED' | 'PROCESSING' | 'SENT' | 'FAILED';
/** sapi-sk.md, States: the tax authority leg, reported apart in `fs.status`. */
type SapiFsStatus = 'NOT_SUBMITTED' | 'SUBMITTED' | 'ACKNOWLEDGED' | 'FAILED';

/**
 * reportDeadline: the day by which the document's tax data must reach FS, our rule until FS
 * publishes one (the TDD 1.0.0 bundle states no deadline): the UBL IssueDate plus this many
 * calendar days. The service files right after delivery, so a document normally is acknowledged
 * long before it; the date tells a client how long a FAILED filing may wait for a fix.
 */
const REPORT_DEADLINE_DAYS = 5;

export function reportDeadline(issueDate: string): string {
  const day = new Date(`${issueDate}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return issueDate;
  day.setUTCDate(day.getUTCDate() + REPORT_DEADLINE_DAYS);
  return day.toISOString().slice(0, 10);
}

/** The receiving Access Point's MLS on the document's Peppol message, as the status shows it. */
export interface SapiDocumentMls {
  response_code: SapiDocumentMlsReceived['data']['response_code'];
  description: string | null;
  issues: SapiDocumentMlsReceived['data']['issues'];
  received_at: string;
}

/** The document as its stream says, without the payload (which only the Peppol and FS legs read). */
export interface SapiDocumentView {
  document_id: string;
  provider_document_id: string;
  client_id: string;
  organisation_id: string;
  company_id: string;
  client_document_id: string;
  document_type_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  document_root: 'Invoice' | 'CreditNote';
  invoice_number: string;
  status: SapiDocumentStatus;
  peppol_message_id: string;
  peppol_attempts: number;
  /** when the next Peppol attempt is due, while one is (not shown: the status has no such field) */
  peppol_next_attempt_at?: string | null;
  failure_reason: string | null;
  /** the receiving Access Point's MLS, null until one came; absent in views stored before it was kept */
  mls?: SapiDocumentMls | null;
  fs: {
    status: SapiFsStatus;
    submission_id: string | null;
    tdd_uuid: string | null;
    attempts: number;
    /** when the next filing attempt is due, while one is; when it was filed (the verdict's deadline runs from it); not shown */
    next_attempt_at?: string | null;
    submitted_at?: string | null;
    report_deadline: string;
    acknowledged_at: string | null;
    error_message: string | null;
  };
  received_at: string;
  updated_at: string;
}

export type SapiDocumentState = SapiDocumentView | null;

export type SapiDocumentCommand =
  | { type: 'AcceptSapiDocument'; data: SapiDocumentAccepted['data'] }
  | { type: 'StartSapiProcessing'; at: string }
  | { type: 'RecordSapiAttemptFailed'; leg: 'peppol' | 'fs'; reason: string; failure: AttemptFailure; policy: RetryPolicy; at: string }
  | { type: 'RecordSapiFsVerdictOverdue'; fs_submission_id: string; deadline_ms: number; at: string }
  /** `as4`: the receiver's verified AS4 receipt; null in the sandbox */
  | { type: 'RecordSapiSent'; as4: As4ReceiptRecord; at: string }
  | { type: 'RecordSapiFailed'; reason: string; findings: { rule: string; message: string }[]; rejected_by_receiver: boolean; at: string }
  | ({ type: 'ApplySapiMls' } & Omit<SapiDocumentMlsReceived['data'], 'document_id'>)
  | { type: 'RecordSapiFsSubmitted'; fs_submission_id: string; tdd_uuid: string; at: string }
  | {
      type: 'RecordSapiFsVerdict'; fs_submission_id: string; outcome: 'acknowledged' | 'rejected'; tdd_uuid: string; mls_response_code: string;
      reasons: SapiFsRejected['data']['reasons'] | null; at: string;
    }
  | { type: 'RecordSapiFsFailed'; reason: string; at: string };

const rejectionMessage = (reasons: SapiFsRejected['data']['reasons']) =>
  [reasons.description, ...reasons.issues.map((i) => `${i.rule}: ${i.message}`)].filter((s) => s !== '').join('; ');

function evolve(state: SapiDocumentState, event: SapiDocumentEvent): SapiDocumentState {
  if (event.type === 'SapiDocumentAccepted') {
    const d = event.data;
    return {
      document_id: d.document_id, provider_document_id: d.provider_document_id, client_id: d.client_id, organisation_id: d.organisation_id,
      company_id: d.company_id, client_document_id: d.metadata.document_id, document_type_id: d.metadata.document_type_id,
      sender_participant_id: d.metadata.sender_participant_id, receiver_participant_id: d.metadata.receiver_participant_id, document_root: d.document_root,
      invoice_number: d.invoice_number, status: 'ACCEPTED', peppol_message_id: d.peppol_message_id, peppol_attempts: 0, failure_reason: null, mls: null,
      fs: { status: 'NOT_SUBMITTED', submission_id: null, tdd_uuid: null, attempts: 0, report_deadline: reportDeadline(d.issue_date), acknowledged_at: null, error_message: null },
      received_at: d.accepted_at, updated_at: d.accepted_at,
    };
  }
  if (state === null) return state;
  switch (event.type) {
    case 'SapiDocumentProcessing':
      return { ...state, status: 'PROCESSING', updated_at: event.data.started_at };
    case 'SapiDeliveryAttemptFailed':
      return event.data.leg === 'peppol'
        ? { ...state, peppol_attempts: state.peppol_attempts + 1, peppol_next_attempt_at: event.data.retry_at, updated_at: event.data.failed_at }
        : { ...state, fs: { ...state.fs, attempts: state.fs.attempts + 1, next_attempt_at: event.data.retry_at }, updated_at: event.data.failed_at };
    case 'SapiDocumentSent':
      return { ...state, status: 'SENT', updated_at: event.data.sent_at };
    case 'SapiDocumentFailed':
      return { ...state, status: 'FAILED', failure_reason: event.data.reason, updated_at: event.data.failed_at };
    case 'SapiDocumentMlsReceived': {
      const { response_code, description, issues, received_at } = event.data;
      return { ...state, mls: { response_code, description, issues, received_at }, updated_at: received_at };
    }
    case 'SapiFsSubmitted':
      return {
        ...state,
        fs: { ...state.fs, status: 'SUBMITTED', submission_id: event.data.fs_submission_id, tdd_uuid: event.data.tdd_uuid, next_attempt_at: null, submitted_at: event.data.submitted_at },
        updated_at: event.data.submitted_at,
      };
    case 'SapiFsAcknowledged':
      return { ...state, fs: { ...state.fs, status: 'ACKNOWLEDGED', acknowledged_at: event.data.acknowledged_at, error_message: null }, updated_at: event.data.acknowledged_at };
    case 'SapiFsRejected':
      return { ...state, fs: { ...state.fs, status: 'FAILED', error_message: rejectionMessage(event.data.reasons) }, updated_at: event.data.rejected_at };
    case 'SapiFsFailed':
      return { ...state, fs: { ...state.fs, status: 'FAILED', error_message: event.data.reason }, updated_at: event.data.failed_at };
  }
}

function decide(command: SapiDocumentCommand, state: SapiDocumentState): SapiDocumentEvent[] {
  if (command.type === 'AcceptSapiDocument') {
    if (state !== null) throw new DomainError('sapi_document_exists', `the document ${command.data.provider_document_id} exists already`);
    return [{ type: 'SapiDocumentAccepted', data: command.data }];
  }
  if (state === null) throw new DomainError('sapi_document_not_found', 'no such document');
  const document_id = state.document_id;
  switch (command.type) {
    case 'StartSapiProcessing':
      return state.status === 'ACCEPTED' ? [{ type: 'SapiDocumentProcessing', data: { document_id, started_at: command.at } }] : [];
    case 'RecordSapiAttemptFailed':
      return attemptFailed(command, state);
    case 'RecordSapiFsVerdictOverdue': {
      const { fs } = state;
      if (fs.status !== 'SUBMITTED' || fs.submission_id !== command.fs_submission_id || !fs.submitted_at) return [];
      const deadline = fsVerdictDeadline(fs.submitted_at, command.deadline_ms);
      if (Date.parse(command.at) < Date.parse(deadline)) return [];
      const hours = Math.round((command.deadline_ms / 3_600_000) * 10) / 10;
      const reason = `FS gave no verdict on submission ${command.fs_submission_id} within ${hours} h of filing (until ${deadline}); ask FS about it or file it again`;
      return [{ type: 'SapiFsFailed', data: { document_id, reason, failed_at: command.at } }];
    }
    case 'RecordSapiSent':
      if (state.status === 'SENT' || state.status === 'FAILED') return []; // recorded already (a repeated reaction)
      if (state.status !== 'PROCESSING') throw new DomainError('sapi_document_not_processing', 'a document is sent only once its Peppol leg has started');
      return [{
        type: 'SapiDocumentSent',
        data: {
          document_id, peppol_message_id: state.peppol_message_id, sender_participant_id: state.sender_participant_id, receiver_participant_id: state.receiver_participant_id, document_type_id: state.document_type_id,
          sent_at: command.at, as4: command.as4,
        },
      }];
    case 'RecordSapiFailed':
      if (state.status === 'SENT' || state.status === 'FAILED') return [];
      return [{
        type: 'SapiDocumentFailed',
        data: { document_id, peppol_message_id: state.peppol_message_id, reason: command.reason, findings: command.findings, rejected_by_receiver: command.rejected_by_receiver, failed_at: command.at },
      }];
    case 'ApplySapiMls': {
      // only an answer to our one message, once it left (PROCESSING on), and only the first (OP-MLS-02)
      if (command.peppol_message_id !== state.peppol_message_id || state.status === 'ACCEPTED' || state.mls) return [];
      const { type: _type, ...mls } = command;
      return [{ type: 'SapiDocumentMlsReceived', data: { document_id, ...mls } }];
    }
    case 'RecordSapiFsSubmitted':
      if (state.fs.status !== 'NOT_SUBMITTED') return [];
      return [{
        type: 'SapiFsSubmitted',
        data: { document_id, provider_document_id: state.provider_document_id, fs_submission_id: command.fs_submission_id, tdd_uuid: command.tdd_uuid, reporter_role: 'C2', submitted_at: command.at },
      }];
    case 'RecordSapiFsVerdict': {
      if (state.fs.status !== 'SUBMITTED' || state.fs.submission_id !== command.fs_submission_id) return [];
      const common = {
        document_id, provider_document_id: state.provider_document_id, organisation_id: state.organisation_id, company_id: state.company_id,
        invoice_number: state.invoice_number, direction: 'sent' as const, reporter_role: 'C2' as const, fs_submission_id: command.fs_submission_id,
        tdd_uuid: command.tdd_uuid, mls_response_code: command.mls_response_code,
      };
      if (command.outcome === 'acknowledged') return [{ type: 'SapiFsAcknowledged', data: { ...common, acknowledged_at: command.at } }];
      return [{ type: 'SapiFsRejected', data: { ...common, rejected_at: command.at, reasons: command.reasons ?? { description: 'rejected by FS', issues: [] } } }];
    }
    case 'RecordSapiFsFailed':
      if (state.fs.status !== 'NOT_SUBMITTED' && state.fs.status !== 'SUBMITTED') return [];
      return [{ type: 'SapiFsFailed', data: { document_id, reason: command.reason, failed_at: command.at } }];
  }
}

/**
 * A failed attempt of an open leg, by the rule native delivery follows (commands/invoices/delivery-retries.ts):
 * a transport failure is recorded with the next attempt's time, and after the last one the leg
 * fails in the same append; a refusal fails it at once.
 */
function attemptFailed(command: Extract<SapiDocumentCommand, { type: 'RecordSapiAttemptFailed' }>, state: SapiDocumentView): SapiDocumentEvent[] {
  const { document_id } = state;
  if (command.leg === 'peppol' ? state.status !== 'PROCESSING' : state.fs.status !== 'NOT_SUBMITTED') return [];
  const { failure, reason, at } = command;
  const legFailed = (why: string): SapiDocumentEvent =>
    command.leg === 'peppol'
      ? {
          type: 'SapiDocumentFailed',
          data: {
            document_id, peppol_message_id: state.peppol_message_id, reason: why, findings: failure.kind === 'rejected' ? failure.findings : [],
            rejected_by_receiver: failure.kind === 'rejected', failed_at: at,
          },
        }
      : { type: 'SapiFsFailed', data: { document_id, reason: why, failed_at: at } };
  if (!isRetried(failure)) return [legFailed(reason)];
  const attempt = (command.leg === 'peppol' ? state.peppol_attempts : state.fs.attempts) + 1;
  const retryAt = nextAttemptAt(command.policy, attempt, at);
  const failed: SapiDocumentEvent = { type: 'SapiDeliveryAttemptFailed', data: { document_id, leg: command.leg, reason, retry_at: retryAt, failed_at: at } };
  return retryAt === null ? [failed, legFailed(`gave up after ${attempt} attempts: ${reason}`)] : [failed];
}

/**
 * An outbound SAPI-SK document's stream: accepted once; the Peppol leg ACCEPTED → PROCESSING →
 * SENT, or FAILED from either; the FS leg NOT_SUBMITTED → SUBMITTED → ACKNOWLEDGED, or FAILED
 * (a rejection or no filing). The receiving Access Point's MLS is kept beside the status, which
 * it does not move. A repeated outcome decides nothing, so a reaction run again after a crash
 * records nothing twice.
 */
export const sapiDocumentDecider: Decider<SapiDocumentCommand, SapiDocumentEvent, SapiDocumentState> = {
  initialState: null,
  decide,
  evolve,
};

/** The view a projection keeps: the decider's own fold. */
export const evolveSapiDocument = evolve;
