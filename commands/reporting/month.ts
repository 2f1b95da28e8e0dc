import type { PeppolReportEvent, PeppolReportFinding, PeppolReportKind } from '../../events/reporting.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { sendingWindow } from './period.ts';

export const REPORT_KINDS: readonly PeppolReportKind[] = ['eusr', 'tsr'];

/** A report as built and checked, before anything is recorded of it. */
export interface CheckedReport {
  xml: string;
  valid: boolean | null;
  errors: PeppolReportFinding[];
}

/** How failed sends are retried: backing off from `retryBaseMs` (5× each time, to at most 6 h) until the sending window closes. */
export interface ReportRetryPolicy {
  retryBaseMs: number;
}

const MAX_WAIT_MS = 6 * 3_600_000;

export type MlsResponseCode = 'AP' | 'AB' | 'RE';
export interface ReportMls {
  response_code: MlsResponseCode;
  reasons: { rule?: string; location: string; message: string; reason_code: string }[];
  received_at: string;
}

export type ReportingCommand =
  | { type: 'BuildReports'; month: string; reports: Record<PeppolReportKind, CheckedReport>; at: string }
  | {
      type: 'StartSending'; month: string; kind: PeppolReportKind; message_id: string; sender_participant_id: string; receiver_participant_id: string;
      document_type_id: string; process_id: string; at: string;
    }
  | { type: 'RecordSendFailed'; month: string; kind: PeppolReportKind; message_id: string; reason: string; retryable: boolean; policy: ReportRetryPolicy; at: string }
  | { type: 'RecordSent'; month: string; kind: PeppolReportKind; message_id: string; received_at: string; receiving_ap: string | null; at: string }
  | ({ type: 'RecordMls'; message_id: string } & ReportMls);

/** built: valid, not sent yet; invalid: never sent (or rules missing); sending: an attempt is due; sent; failed: given up. */
export type ReportStatus = 'built' | 'invalid' | 'sending' | 'sent' | 'failed';

export interface ReportState {
  status: ReportStatus;
  xml: string;
  valid: boolean | null;
  errors: PeppolReportFinding[];
  built_at: string;
  message_id: string | null;
  attempts: number;
  /** when the next attempt is due (sending), null otherwise */
  retry_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  mls: ReportMls | null;
}

export interface ReportingMonthState {
  month: string | null;
  reports: Partial<Record<PeppolReportKind, ReportState>>;
}

const notSendable = (month: string, kind: PeppolReportKind, why: string) =>
  new DomainError('peppol_report_not_sendable', `the ${kind.toUpperCase()} of ${month} cannot be sent: ${why}`, { month, kind });

/** The report a send outcome is about: it must be the message fixed for it (a stale outcome of another id is a bug). */
function sendingReport(state: ReportingMonthState, month: string, kind: PeppolReportKind, messageId: string): ReportState {
  const report = state.reports[kind];
  if (!report || report.message_id !== messageId) throw notSendable(month, kind, `no message ${messageId} was started for it`);
  return report;
}

/** When the next attempt is due after `attempts` failed, or null: not retryable, or past the month's sending window. */
export function retryAt(month: string, attempts: number, failedAt: string, retryable: boolean, policy: ReportRetryPolicy): string | null {
  if (!retryable) return null;
  const next = Date.parse(failedAt) + Math.min(MAX_WAIT_MS, policy.retryBaseMs * 5 ** Math.max(0, attempts - 1));
  const window = sendingWindow(month);
  return window && next < window.closes.getTime() ? new Date(next).toISOString() : null;
}

/**
 * One reported month (stream peppol_reporting-{YYYY-MM}): its EUSR and TSR are built once (a
 * repeat builds nothing: what was built is what is sent), a report that failed its rules is never
 * sent, a report's message id is fixed once (every retry sends the same message), and an outcome
 * or an MLS recorded twice changes nothing.
 */
export const reportingMonthDecider: Decider<ReportingCommand, PeppolReportEvent, ReportingMonthState> = {
  initialState: { month: null, reports: {} },

  decide(command, state) {
    switch (command.type) {
      case 'BuildReports':
        if (state.month !== null) return [];
        return REPORT_KINDS.map((kind) => ({
          type: 'PeppolReportBuilt' as const,
          data: { month: command.month, kind, ...command.reports[kind], built_at: command.at },
        }));
      case 'StartSending': {
        const report = state.reports[command.kind];
        if (!report) throw notSendable(command.month, command.kind, 'it was not built');
        if (report.valid !== true) throw notSendable(command.month, command.kind, report.valid === false ? 'it fails its rules' : 'its rules were not available');
        if (report.message_id !== null) return []; // fixed at the first attempt
        const { type: _, ...data } = command;
        return [{ type: 'PeppolReportSending', data }];
      }
      case 'RecordSendFailed': {
        const report = sendingReport(state, command.month, command.kind, command.message_id);
        if (report.status !== 'sending') return [];
        const attempts = report.attempts + 1;
        return [{
          type: 'PeppolReportSendFailed',
          data: {
            month: command.month, kind: command.kind, message_id: command.message_id, reason: command.reason, attempts,
            retry_at: retryAt(command.month, attempts, command.at, command.retryable, command.policy), failed_at: command.at,
          },
        }];
      }
      case 'RecordSent': {
        const report = sendingReport(state, command.month, command.kind, command.message_id);
        // taken after all (a late receipt after the last failure is recorded too): sent is what happened
        if (report.status === 'sent') return [];
        return [{
          type: 'PeppolReportSent',
          data: { month: command.month, kind: command.kind, message_id: command.message_id, received_at: command.received_at, receiving_ap: command.receiving_ap, sent_at: command.at },
        }];
      }
      case 'RecordMls': {
        const kind = REPORT_KINDS.find((k) => state.reports[k]?.message_id === command.message_id);
        // an answer about no report of this month is not this month's (the caller looks elsewhere)
        if (!kind || state.month === null) return [];
        if (state.reports[kind]?.mls) return []; // the first answer stands; a repeat changes nothing
        return [{
          type: 'PeppolReportMlsReceived',
          data: { month: state.month, kind, message_id: command.message_id, response_code: command.response_code, reasons: command.reasons, received_at: command.received_at },
        }];
      }
    }
  },

  evolve(state, event) {
    const { kind } = event.data;
    const report = state.reports[kind];
    const put = (next: ReportState): ReportingMonthState => ({ month: event.data.month, reports: { ...state.reports, [kind]: next } });
    switch (event.type) {
      case 'PeppolReportBuilt': {
        const { xml, valid, errors, built_at } = event.data;
        return put({
          status: valid === true ? 'built' : 'invalid', xml, valid, errors, built_at,
          message_id: null, attempts: 0, retry_at: null, last_error: null, sent_at: null, mls: null,
        });
      }
      case 'PeppolReportSending':
        return report ? put({ ...report, status: 'sending', message_id: event.data.message_id }) : state;
      case 'PeppolReportSendFailed':
        return report
          ? put({ ...report, status: event.data.retry_at === null ? 'failed' : 'sending', attempts: event.data.attempts, retry_at: event.data.retry_at, last_error: event.data.reason })
          : state;
      case 'PeppolReportSent':
        return report ? put({ ...report, status: 'sent', retry_at: null, sent_at: event.data.sent_at }) : state;
      case 'PeppolReportMlsReceived': {
        const { response_code, reasons, received_at } = event.data;
        return report ? put({ ...report, mls: { response_code, reasons, received_at } }) : state;
      }
    }
  },
};
