import type { As4ReceiptRecord, DeliveryEvent, FsRejectionReasons, InvoiceReceived, PeppolMlsReceived } from '../../events/delivery.ts';
import { assertApprovalNotVoided } from '../approvals/void.ts';
import type { InvoiceStatus } from '../../events/invoices.ts';
import type { RequestScope } from '../shared/access.ts';
import { DomainError } from '../shared/domain-error.ts';
import { stableUuid } from '../shared/stable-id.ts';
import { ruleOfIssue } from '../mls/answer.ts';
import { StandingRefusal } from '../shared/preconditions.ts';
import { existingInvoice, invoiceFor } from './access.ts';
import { buyerHoldsNothing } from './delivery.ts';
import type { CodeLists } from './code-lists.ts';
import type { RuleFinding } from './model.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import { checkInvoice } from './rules.ts';
import { fsVerdictDeadline, isRetried, nextAttemptAt, type AttemptFailure, type RetryPolicy } from './delivery-retries.ts';
import type { InvoiceState, KnownInvoice } from './state.ts';

/**
 * Send, the outcomes the delivery reactors record, mark-sent and inbound receipt. A client's
 * command (send, mark-sent) carries the caller's scope: an invoice it may not see is not found. Outcomes are
 * idempotent: a reaction repeated after a crash, or an outcome for a message that is no longer
 * the current one, decides nothing instead of failing.
 */
export type DeliveryCommand =
  | { type: 'SendInvoice'; invoice_id: string; scope: RequestScope; queued_by: string; peppol_message_id: string; code_lists: CodeLists; at: string }
  | {
      type: 'RecordDeliveryAttemptFailed';
      invoice_id: string;
      leg: 'peppol' | 'fs';
      reason: string;
      failure: AttemptFailure;
      policy: RetryPolicy;
      at: string;
    }
  | { type: 'RecordFsVerdictOverdue'; invoice_id: string; fs_submission_id: string; deadline_ms: number; at: string }
  | {
      type: 'RecordPeppolSent';
      invoice_id: string;
      peppol_message_id: string;
      sender_participant_id: string;
      receiver_participant_id: string;
      document_type_id: string;
      /** the receiver's verified AS4 receipt; null in the sandbox, or when recorded without a send in hand */
      as4: As4ReceiptRecord;
      at: string;
    }
  | { type: 'ConfirmPeppolDelivery'; invoice_id: string; peppol_message_id: string; at: string }
  | ({ type: 'ApplyMls'; invoice_id: string; peppol_message_id: string } & Omit<PeppolMlsReceived['data'], 'invoice_id' | 'peppol_message_id'>)
  | {
      type: 'RecordPeppolFailed';
      invoice_id: string;
      peppol_message_id: string;
      reason: string;
      findings: { rule: string; message: string }[];
      /** the receiving Access Point returned the refusal (invoice.rejected) */
      rejected_by_receiver?: true;
      at: string;
    }
  | { type: 'RecordFsSubmitted'; invoice_id: string; fs_submission_id: string; tdd_uuid: string; reporter_role: 'C2' | 'C3'; at: string }
  | {
      type: 'RecordFsVerdict';
      invoice_id: string;
      fs_submission_id: string;
      verdict: 'acknowledged' | 'rejected';
      tdd_uuid: string;
      mls_response_code: string;
      reasons: FsRejectionReasons | null;
      at: string;
    }
  | { type: 'RecordFsFailed'; invoice_id: string; reason: string; at: string }
  | { type: 'MarkSent'; invoice_id: string; scope: RequestScope; marked_by: string; delivered_at: string; note: string | null; at: string }
  | ({ type: 'ReceiveInvoice' } & InvoiceReceived['data']);

/** Statuses a send starts from (the spec's table). */
const SENDABLE_STATUSES: readonly InvoiceStatus[] = ['draft', 'validated', 'approved'];

/** A status that allows no such step: it stands whatever version the client read (preconditions.ts). */
const invalidStatus = (state: KnownInvoice, what: string) =>
  new StandingRefusal('invalid_status', `${what} is not possible in status ${state.status}${state.source === 'peppol' ? ' (a received invoice is read-only)' : ''}`, {
    status: state.status,
  });

/** Peppol needs both electronic addresses; without them there is nobody to deliver to. */
function addressFindings(state: KnownInvoice): RuleFinding[] {
  const findings: RuleFinding[] = [];
  if (!state.content.supplier.peppol_id) {
    findings.push({ rule: 'PEPPOL-EN16931-R020', message: 'Seller electronic address (supplier.peppol_id) MUST be provided', severity: 'fatal', field: 'supplier.peppol_id' });
  }
  if (!state.content.buyer.peppol_id) {
    findings.push({ rule: 'PEPPOL-EN16931-R010', message: 'Buyer electronic address (buyer.peppol_id) MUST be provided', severity: 'fatal', field: 'buyer.peppol_id' });
  }
  return findings;
}

export function decideDelivery(command: DeliveryCommand, state: InvoiceState): DeliveryEvent[] | InvoiceReceived[] {
  switch (command.type) {
    case 'SendInvoice': {
      const invoice = invoiceFor(state, command.scope);
      if (invoice.source !== 'api' || !SENDABLE_STATUSES.includes(invoice.status)) throw invalidStatus(invoice, 'sending');
      assertApprovalNotVoided(invoice, 'sending');
      const findings = [...checkInvoice(invoice.content, command.code_lists), ...addressFindings(invoice)];
      if (findings.some((f) => f.severity === 'fatal')) throw new InvoiceRuleViolation(findings);
      const receiver = invoice.content.buyer.peppol_id ?? '';
      return [
        {
          type: 'InvoiceQueued',
          data: {
            invoice_id: command.invoice_id, queued_by: command.queued_by, peppol_message_id: command.peppol_message_id, receiver_participant_id: receiver,
            // the TDD's message id follows from the Peppol one: every retry files the same TDD
            queued_at: command.at, fs_message_id: stableUuid('fs-c2', command.peppol_message_id),
          },
        },
        { type: 'InvoiceAuditEntryRecorded', data: { invoice_id: command.invoice_id, action: 'sent_peppol', result: 'PENDING', actor_id: command.queued_by, at: command.at } },
      ];
    }
    case 'RecordDeliveryAttemptFailed':
      return attemptFailed(command, existingInvoice(state));
    case 'RecordFsVerdictOverdue': {
      const { fs } = existingInvoice(state).delivery;
      if (fs.status !== 'submitted' || fs.submission_id !== command.fs_submission_id || !fs.submitted_at) return [];
      const deadline = fsVerdictDeadline(fs.submitted_at, command.deadline_ms);
      if (Date.parse(command.at) < Date.parse(deadline)) return [];
      const hours = Math.round((command.deadline_ms / 3_600_000) * 10) / 10;
      const reason = `FS gave no verdict on submission ${command.fs_submission_id} within ${hours} h of filing (until ${deadline}); ask FS about it or file it again`;
      return [{ type: 'FsFilingFailed', data: { invoice_id: command.invoice_id, reason, attempts: fs.attempts, failed_at: command.at } }];
    }
    case 'RecordPeppolSent': {
      const { peppol } = existingInvoice(state).delivery;
      // the delivery status may overtake this record (the receiver answers before we wrote it down): record it all the same
      const open = peppol.status === 'queued' || (peppol.status === 'delivered' && peppol.sent_at === null);
      if (peppol.message_id !== command.peppol_message_id || !open) return [];
      return [
        {
          type: 'PeppolMessageSent',
          data: {
            invoice_id: command.invoice_id, peppol_message_id: command.peppol_message_id, sender_participant_id: command.sender_participant_id,
            receiver_participant_id: command.receiver_participant_id, document_type_id: command.document_type_id, sent_at: command.at, as4: command.as4,
          },
        },
      ];
    }
    case 'ConfirmPeppolDelivery': {
      const { peppol } = existingInvoice(state).delivery;
      if (peppol.message_id !== command.peppol_message_id || (peppol.status !== 'queued' && peppol.status !== 'sent')) return [];
      return [{ type: 'PeppolDeliveryConfirmed', data: { invoice_id: command.invoice_id, peppol_message_id: command.peppol_message_id, delivered_at: command.at } }];
    }
    case 'ApplyMls':
      return mlsOutcome(command, existingInvoice(state));
    case 'RecordPeppolFailed': {
      const { peppol } = existingInvoice(state).delivery;
      if (peppol.message_id !== command.peppol_message_id || (peppol.status !== 'queued' && peppol.status !== 'sent')) return [];
      return [
        {
          type: 'PeppolDeliveryFailed',
          data: {
            invoice_id: command.invoice_id, peppol_message_id: command.peppol_message_id, reason: command.reason, findings: command.findings,
            attempts: peppol.attempts, failed_at: command.at, ...(command.rejected_by_receiver ? { rejected_by_receiver: true as const } : {}),
          },
        },
      ];
    }
    case 'RecordFsSubmitted': {
      const { fs } = existingInvoice(state).delivery;
      if (fs.status !== 'pending') return [];
      return [
        {
          type: 'FsCopySubmitted',
          data: { invoice_id: command.invoice_id, fs_submission_id: command.fs_submission_id, tdd_uuid: command.tdd_uuid, reporter_role: command.reporter_role, submitted_at: command.at },
        },
      ];
    }
    case 'RecordFsVerdict': {
      const invoice = existingInvoice(state);
      const { fs } = invoice.delivery;
      // corner 5's MLS may overtake the record of our filing (it proves corner 5 took the TDD): both are recorded then
      const overtaken = fs.status === 'pending' && !!fs.message_id && fs.message_id === command.fs_submission_id;
      if (!overtaken && (fs.status !== 'submitted' || fs.submission_id !== command.fs_submission_id)) return [];
      const common = { invoice_id: command.invoice_id, fs_submission_id: command.fs_submission_id, tdd_uuid: command.tdd_uuid, mls_response_code: command.mls_response_code };
      const submitted: DeliveryEvent[] = overtaken
        ? [{
            type: 'FsCopySubmitted',
            data: {
              invoice_id: command.invoice_id, fs_submission_id: command.fs_submission_id, tdd_uuid: command.tdd_uuid,
              reporter_role: fs.reporter_role ?? (invoice.source === 'peppol' ? 'C3' : 'C2'), submitted_at: command.at,
            },
          }]
        : [];
      return [...submitted, command.verdict === 'acknowledged'
        ? { type: 'FsCopyAcknowledged', data: { ...common, acknowledged_at: command.at } }
        : { type: 'FsCopyRejected', data: { ...common, reasons: command.reasons ?? { description: 'rejected', issues: [] }, rejected_at: command.at } }];
    }
    case 'RecordFsFailed': {
      const { fs } = existingInvoice(state).delivery;
      if (fs.status !== 'pending' && fs.status !== 'submitted') return [];
      return [{ type: 'FsFilingFailed', data: { invoice_id: command.invoice_id, reason: command.reason, attempts: fs.attempts, failed_at: command.at } }];
    }
    case 'MarkSent': {
      const invoice = invoiceFor(state, command.scope);
      if (invoice.delivery.peppol.status === 'manual') return [];
      const peppolGaveUp = (invoice.status === 'failed' || invoice.status === 'rejected') && buyerHoldsNothing(invoice.delivery.peppol);
      if (invoice.source !== 'api' || !(SENDABLE_STATUSES.includes(invoice.status) || peppolGaveUp)) throw invalidStatus(invoice, 'marking as sent');
      assertApprovalNotVoided(invoice, 'marking as sent');
      return [
        { type: 'InvoiceMarkedSent', data: { invoice_id: command.invoice_id, marked_by: command.marked_by, delivered_at: command.delivered_at, note: command.note, at: command.at } },
      ];
    }
    case 'ReceiveInvoice': {
      const { type: _type, ...data } = command;
      if (state.status !== 'none') {
        if (state.delivery.peppol.message_id === command.peppol_message_id) return []; // the same message again
        throw new DomainError('invoice_exists', 'invoice already exists');
      }
      return [{ type: 'InvoiceReceived', data }];
    }
  }
}

/**
 * The receiving Access Point's MLS on our message: AP or AB delivers the invoice, RE rejects it with
 * the MLS's reasons (invoice.rejected). Only the current message of an open leg is answered: an
 * MLS for another message, or one after the leg ended (a second MLS), decides nothing.
 */
function mlsOutcome(command: Extract<DeliveryCommand, { type: 'ApplyMls' }>, invoice: KnownInvoice): DeliveryEvent[] {
  const { peppol } = invoice.delivery;
  if (peppol.message_id !== command.peppol_message_id || (peppol.status !== 'queued' && peppol.status !== 'sent')) return [];
  const { type: _type, ...data } = command;
  const received: DeliveryEvent = { type: 'PeppolMlsReceived', data };
  const { invoice_id, peppol_message_id, received_at: at } = command;
  if (command.response_code !== 'RE') return [received, { type: 'PeppolDeliveryConfirmed', data: { invoice_id, peppol_message_id, delivered_at: at } }];
  const findings = command.issues.map((issue) => ({ rule: ruleOfIssue(issue.description) ?? issue.reason, message: issue.description }));
  const reason = `the receiving Access Point rejected the invoice (MLS RE): ${command.description ?? 'no description given'}`;
  return [received, { type: 'PeppolDeliveryFailed', data: { invoice_id, peppol_message_id, reason, findings, attempts: peppol.attempts, failed_at: at, rejected_by_receiver: true } }];
}

/**
 * A failed attempt of an open leg: a transport failure is recorded with the time of the next
 * attempt, and after the last one the leg gives up in the same append; a refusal ends the leg at
 * once (the receiver's own refusal marked as such). A leg no longer open decides nothing.
 */
function attemptFailed(command: Extract<DeliveryCommand, { type: 'RecordDeliveryAttemptFailed' }>, invoice: KnownInvoice): DeliveryEvent[] {
  const { peppol, fs } = invoice.delivery;
  const open = command.leg === 'peppol' ? peppol.status === 'queued' : fs.status === 'pending';
  if (!open) return [];
  const { invoice_id, reason, at, failure } = command;
  const legFailed = (why: string, attempts: number): DeliveryEvent =>
    command.leg === 'peppol'
      ? {
          type: 'PeppolDeliveryFailed',
          data: {
            invoice_id, peppol_message_id: peppol.message_id ?? '', reason: why, findings: failure.kind === 'rejected' ? failure.findings : [], attempts,
            failed_at: at, ...(failure.kind === 'rejected' ? { rejected_by_receiver: true as const } : {}),
          },
        }
      : { type: 'FsFilingFailed', data: { invoice_id, reason: why, attempts, failed_at: at } };
  const made = command.leg === 'peppol' ? peppol.attempts : fs.attempts;
  if (!isRetried(failure)) return [legFailed(reason, made)];
  const attempt = made + 1;
  const retryAt = nextAttemptAt(command.policy, attempt, at);
  const failed: DeliveryEvent = { type: 'DeliveryAttemptFailed', data: { invoice_id, leg: command.leg, attempt, reason, retry_at: retryAt, failed_at: at } };
  return retryAt === null ? [failed, legFailed(`gave up after ${attempt} attempts: ${reason}`, attempt)] : [failed];
}
