import type { DomainEvent } from './event.ts';

/*
 * Peppol Reporting: our Access Point's monthly reports to OpenPeppol, one stream per reported month
 * (peppol_reporting-{YYYY-MM}). The month's EUSR and TSR are built once and kept as sent; each is
 * sent as its own Peppol message, whose SBDH instance identifier is fixed before the first attempt
 * (a retry sends the same message again), and OpenPeppol's MLS answers it. No organisation owns
 * these streams: they are the service provider's.
 */

export type PeppolReportKind = 'eusr' | 'tsr';

/** A finding of the official XSD or Schematron on a report. */
export interface PeppolReportFinding {
  rule: string;
  location: string;
  message: string;
}

/** One report of the month, built and checked with its official XSD and Schematron. */
export type PeppolReportBuilt = DomainEvent<
  'PeppolReportBuilt',
  {
    /** YYYY-MM, the month reported */
    month: string;
    kind: PeppolReportKind;
    /** the report's XML, exactly as it is (or would be) sent */
    xml: string;
    /** true: every rule ran and none failed; false: a fatal finding (never sent); null: the rules were not available (never sent) */
    valid: boolean | null;
    /** the fatal findings (empty when valid) */
    errors: PeppolReportFinding[];
    built_at: string;
  }
>;

/** A valid report is about to be sent: its Peppol message, fixed for every attempt. */
export type PeppolReportSending = DomainEvent<
  'PeppolReportSending',
  {
    month: string;
    kind: PeppolReportKind;
    /** the SBDH InstanceIdentifier: the Peppol message id an MLS refers to */
    message_id: string;
    sender_participant_id: string;
    receiver_participant_id: string;
    document_type_id: string;
    process_id: string;
    at: string;
  }
>;

/** An attempt failed; `retry_at` is when the next is due, null when there is none (refused, or the window closed). */
export type PeppolReportSendFailed = DomainEvent<
  'PeppolReportSendFailed',
  {
    month: string;
    kind: PeppolReportKind;
    message_id: string;
    reason: string;
    /** attempts made so far, this one included */
    attempts: number;
    retry_at: string | null;
    failed_at: string;
  }
>;

/** The receiving Access Point took the message. */
export type PeppolReportSent = DomainEvent<
  'PeppolReportSent',
  {
    month: string;
    kind: PeppolReportKind;
    message_id: string;
    /** the receiving side's time of receipt */
    received_at: string;
    /** over AS4: the receiving Access Point's certificate CN; null in the sandbox */
    receiving_ap: string | null;
    sent_at: string;
  }
>;

/** OpenPeppol's Message Level Status about a report we sent. */
export type PeppolReportMlsReceived = DomainEvent<
  'PeppolReportMlsReceived',
  {
    month: string;
    kind: PeppolReportKind;
    message_id: string;
    /** AP accepted, AB accepted with remarks (acknowledged), RE rejected */
    response_code: 'AP' | 'AB' | 'RE';
    reasons: { rule?: string; location: string; message: string; reason_code: string }[];
    received_at: string;
  }
>;

export type PeppolReportEvent = PeppolReportBuilt | PeppolReportSending | PeppolReportSendFailed | PeppolReportSent | PeppolReportMlsReceived;

export const peppolReportStream = (month: string) => `peppol_reporting-${month}`;
