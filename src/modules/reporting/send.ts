import { REPORT_KINDS, type ReportingMonthState, type ReportRetryPolicy } from '../../../commands/reporting/month.ts';
import type { PeppolReportKind } from '../../../events/reporting.ts';
import {
  boundedAttempt, EUSR_DOCUMENT_TYPE_ID, OPENPEPPOL_REPORTING_RECEIVER, PeppolRefusedError, PeppolTransportError, REPORTING_PROCESS_ID, wrapInSbdh,
  type PeppolNetwork, type PeppolReceipt, TSR_DOCUMENT_TYPE_ID,
} from '../delivery/index.ts';
import type { Core } from '../../platform/core.ts';
import { onMonth } from './month-stream.ts';

export type SendDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'config'> & {
  network: PeppolNetwork;
  /** our Access Point's SPIS participant (its certificate's seat id under AS4): the reports' sender, and where their MLS comes */
  ourSpis: string;
};

const COMPONENT = 'peppol-reporting';

export const DOCUMENT_TYPES: Record<PeppolReportKind, string> = { eusr: EUSR_DOCUMENT_TYPE_ID, tsr: TSR_DOCUMENT_TYPE_ID };

/**
 * The country of corner 1 in the reports' SBDH (COUNTRY_C1 is mandatory in every Peppol message):
 * for a report, corner 1 is the service provider itself, a Slovak one.
 */
const OUR_COUNTRY = 'SK';

/** Where the reports go: PEPPOL_REPORTING_RECEIVER, else OpenPeppol's participant. */
export const reportingReceiver = (config: Core['config']) => config.delivery.reporting.receiver ?? OPENPEPPOL_REPORTING_RECEIVER;

/** Whether a report still has an attempt to make (built and valid, or sending), and when. */
export function nextAttemptOf(state: ReportingMonthState, kind: PeppolReportKind): Date | 'now' | null {
  const report = state.reports[kind];
  if (!report || (report.status !== 'built' && report.status !== 'sending')) return null;
  return report.retry_at ? new Date(report.retry_at) : 'now';
}

/**
 * One attempt to send one report of `month`: its message id is fixed first (the stream keeps it,
 * so an attempt made again after a crash or a failure sends the same message, which the receiving
 * Access Point drops as a duplicate), then the report goes out in its SBDH through the Peppol
 * network port, bounded by the attempt timeout. The outcome is recorded: sent, or a failed attempt
 * with the time of the next (a transport failure; a refusal is final).
 */
export async function sendReport(deps: SendDeps, month: string, kind: PeppolReportKind, state: ReportingMonthState, policy: ReportRetryPolicy, signal: AbortSignal): Promise<ReportingMonthState> {
  const at = () => deps.clock.now().toISOString();
  const sender = deps.ourSpis;
  const receiver = reportingReceiver(deps.config);
  const documentTypeId = DOCUMENT_TYPES[kind];
  let current = state;
  if (!current.reports[kind]?.message_id) {
    current = await onMonth(deps, month, {
      type: 'StartSending', month, kind, message_id: deps.ids.next(), sender_participant_id: sender, receiver_participant_id: receiver,
      document_type_id: documentTypeId, process_id: REPORTING_PROCESS_ID, at: at(),
    }, COMPONENT);
  }
  const report = current.reports[kind];
  if (!report?.message_id) throw new Error(`the ${kind} of ${month} has no message id after StartSending`);
  const messageId = report.message_id;
  const failed = (reason: string, retryable: boolean) =>
    onMonth(deps, month, { type: 'RecordSendFailed', month, kind, message_id: messageId, reason, retryable, policy, at: at() }, COMPONENT);
  let envelope: string;
  try {
    envelope = wrapInSbdh({
      sender, receiver, documentTypeId, processId: REPORTING_PROCESS_ID, instanceId: messageId, createdAt: deps.clock.now(), countryC1: OUR_COUNTRY, document: report.xml,
      // OpenPeppol's MLS on the report is kept on the month (reportMlsMatcher)
      mlsTo: sender, mlsType: 'ALWAYS_SEND',
    });
  } catch (error) {
    return failed(`no envelope can be written: ${error instanceof Error ? error.message : String(error)}`, false);
  }
  const timeoutMs = deps.config.delivery.attemptTimeoutMs;
  let receipt: PeppolReceipt;
  try {
    receipt = await boundedAttempt((s) => deps.network.send({
      message_id: messageId, sender_participant_id: sender, receiver_participant_id: receiver, document_type_id: documentTypeId, process_id: REPORTING_PROCESS_ID, envelope,
    }, s), { signal, timeoutMs, timedOut: () => new PeppolTransportError(`no answer from the receiving Access Point within ${timeoutMs} ms`) });
  } catch (error) {
    if (signal.aborted) throw error; // the service stops: not a failed attempt; made again
    return failed(error instanceof Error ? error.message : String(error), !(error instanceof PeppolRefusedError));
  }
  return onMonth(deps, month, { type: 'RecordSent', month, kind, message_id: messageId, received_at: receipt.received_at, receiving_ap: receipt.as4?.receiving_ap ?? null, at: at() }, COMPONENT);
}

export { REPORT_KINDS };
