import type { DeliveryEvent, FsRejectionReasons, InvoiceReceived } from '../../events/delivery.ts';
import type { InvoiceStatus } from '../../events/invoices.ts';
import type { MlsIssueRecord } from '../../events/mls.ts';

/**
 * The two legs of a sent invoice and how they map onto the one status the spec gives an invoice.
 *
 * - Peppol leg: queued → sent (the receiving Access Point took the AS4 message) → delivered (its
 *   MLS said AP or AB, or the sandbox's delivery status came back), or rejected (its MLS said RE:
 *   it holds nothing); or failed (not transmitted, or refused at the transport). `manual` is an
 *   invoice finished by hand (mark-sent); `received` is the inbound copy of a receiving company.
 * - FS leg (`c5`): pending → submitted (FS took the tax data document) → acknowledged | rejected;
 *   or failed.
 *
 * The status follows the Peppol leg until the buyer has the invoice, then the FS leg:
 * queued, sent_peppol, then delivered → sent_fs → fs_acknowledged. So `fs_acknowledged` means
 * both legs are done, and the spec's order (delivered before sent_fs) holds whichever leg is
 * faster. A failed leg makes the invoice `failed`; a rejection, by the receiving Access Point's
 * MLS or by FS, makes it `rejected` (the document needs correcting). The detail of each leg stays readable beside the status.
 */
interface PeppolLeg {
  status: 'not_sent' | 'queued' | 'sent' | 'delivered' | 'rejected' | 'failed' | 'manual' | 'received';
  message_id: string | null;
  receiver_participant_id: string | null;
  attempts: number;
  error: string | null;
  findings: { rule: string; message: string }[];
  queued_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  failed_at: string | null;
  /** when the next transport attempt is due, while one is (not shown: the API has no such field) */
  next_attempt_at?: string | null;
  /** the receiving Access Point's Message Level Status, once it came (absent in rows written before MLS) */
  mls?: PeppolMls | null;
}

/** What the receiving Access Point's MLS said: AP or AB delivered, RE rejected, with its reasons. */
export interface PeppolMls {
  response_code: 'AP' | 'AB' | 'RE';
  description: string | null;
  issues: MlsIssueRecord[];
  received_at: string;
}

/** The FS filing detail (the spec's `c5`). */
interface FsLeg {
  status: 'not_submitted' | 'pending' | 'submitted' | 'acknowledged' | 'rejected' | 'failed';
  /** the TDD's Peppol message id, fixed when the leg starts (absent in rows and events from before) */
  message_id?: string | null;
  reporter_role: 'C2' | 'C3' | null;
  submission_id: string | null;
  tdd_uuid: string | null;
  mls_response_code: string | null;
  attempts: number;
  submitted_at: string | null;
  acknowledged_at: string | null;
  rejected_at: string | null;
  reasons: FsRejectionReasons | null;
  error: string | null;
  /** when the next filing attempt is due, while one is (not shown) */
  next_attempt_at?: string | null;
}

export interface Delivery {
  peppol: PeppolLeg;
  fs: FsLeg;
}

export const NO_DELIVERY: Delivery = {
  peppol: {
    status: 'not_sent', message_id: null, receiver_participant_id: null, attempts: 0, error: null, findings: [],
    queued_at: null, sent_at: null, delivered_at: null, failed_at: null, mls: null,
  },
  fs: {
    status: 'not_submitted', reporter_role: null, submission_id: null, tdd_uuid: null, mls_response_code: null, attempts: 0,
    submitted_at: null, acknowledged_at: null, rejected_at: null, reasons: null, error: null,
  },
};

/** Whether the Peppol leg ended with the buyer holding nothing: never transmitted, refused at the transport, or rejected by its MLS. */
export const buyerHoldsNothing = (peppol: Delivery['peppol']) => peppol.status === 'failed' || peppol.status === 'rejected';

/** Whether the invoice has left the service (or arrived from outside): its content is fixed from then on. */
export const hasLeft = (d: Delivery) => d.peppol.status !== 'not_sent';

/** The invoice status the legs give; null while neither leg has started (the authoring status stands). */
export function deliveryStatus(d: Delivery): InvoiceStatus | null {
  const { peppol, fs } = d;
  if (peppol.status === 'not_sent') return null;
  if (peppol.status === 'failed' || fs.status === 'failed') return 'failed';
  if (peppol.status === 'rejected' || fs.status === 'rejected') return 'rejected';
  if (peppol.status === 'queued') return 'queued';
  if (peppol.status === 'sent') return 'sent_peppol';
  if (fs.status === 'submitted') return 'sent_fs';
  if (fs.status === 'acknowledged') return 'fs_acknowledged';
  return 'delivered';
}

export function evolveDelivery(d: Delivery, event: DeliveryEvent | InvoiceReceived): Delivery {
  const peppol = (change: Partial<PeppolLeg>): Delivery => ({ ...d, peppol: { ...d.peppol, ...change } });
  const fs = (change: Partial<FsLeg>): Delivery => ({ ...d, fs: { ...d.fs, ...change } });
  switch (event.type) {
    case 'InvoiceQueued':
      return {
        peppol: {
          ...NO_DELIVERY.peppol, status: 'queued', message_id: event.data.peppol_message_id,
          receiver_participant_id: event.data.receiver_participant_id, queued_at: event.data.queued_at,
        },
        fs: { ...NO_DELIVERY.fs, status: 'pending', reporter_role: 'C2', message_id: event.data.fs_message_id ?? null },
      };
    case 'InvoiceAuditEntryRecorded':
      return d;
    case 'DeliveryAttemptFailed':
      return event.data.leg === 'peppol'
        ? peppol({ attempts: event.data.attempt, error: event.data.reason, next_attempt_at: event.data.retry_at })
        : fs({ attempts: event.data.attempt, error: event.data.reason, next_attempt_at: event.data.retry_at });
    case 'PeppolMessageSent':
      return peppol({ status: d.peppol.status === 'delivered' ? 'delivered' : 'sent', sent_at: event.data.sent_at, error: null, next_attempt_at: null });
    case 'PeppolDeliveryConfirmed':
      return peppol({ status: 'delivered', delivered_at: event.data.delivered_at, error: null });
    case 'PeppolMlsReceived': {
      const { response_code, description, issues, received_at } = event.data;
      return peppol({ mls: { response_code, description, issues, received_at } });
    }
    case 'PeppolDeliveryFailed':
      // the MLS that ended the leg is applied first, in the same append (mlsOutcome)
      return peppol({ status: d.peppol.mls?.response_code === 'RE' ? 'rejected' : 'failed', error: event.data.reason, findings: event.data.findings, attempts: event.data.attempts, failed_at: event.data.failed_at, next_attempt_at: null });
    case 'FsCopySubmitted':
      return fs({
        status: d.fs.status === 'pending' || d.fs.status === 'not_submitted' ? 'submitted' : d.fs.status,
        reporter_role: event.data.reporter_role, submission_id: event.data.fs_submission_id, tdd_uuid: event.data.tdd_uuid,
        submitted_at: event.data.submitted_at, error: null, next_attempt_at: null,
      });
    case 'FsCopyAcknowledged':
      return fs({ status: 'acknowledged', mls_response_code: event.data.mls_response_code, acknowledged_at: event.data.acknowledged_at, tdd_uuid: event.data.tdd_uuid });
    case 'FsCopyRejected':
      return fs({ status: 'rejected', mls_response_code: event.data.mls_response_code, rejected_at: event.data.rejected_at, reasons: event.data.reasons });
    case 'FsFilingFailed':
      return fs({ status: 'failed', error: event.data.reason, attempts: event.data.attempts, next_attempt_at: null });
    case 'InvoiceMarkedSent':
      return peppol({ status: 'manual', delivered_at: event.data.delivered_at, error: null });
    case 'InvoiceReceived':
      return {
        peppol: {
          ...NO_DELIVERY.peppol, status: 'received', message_id: event.data.peppol_message_id,
          receiver_participant_id: event.data.receiver_participant_id, delivered_at: event.data.received_at,
        },
        fs: { ...NO_DELIVERY.fs, status: 'pending', reporter_role: 'C3', message_id: event.data.fs_message_id ?? null },
      };
  }
}
