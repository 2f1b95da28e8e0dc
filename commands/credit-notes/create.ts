/**
 * Creating a credit note through the credit-note route, decided as one thing over two streams:
 * the invoice's stream reserves what it credits (the decider, at the caller's If-Match revision),
 * and the credit note's own stream starts with its document and how it leaves (rule 7). The
 * caller appends both in one write, so a credit note never exists without its reservation, nor a
 * reservation without its credit note.
 */
import type { CreditNoteCreated, CreditNoteEvent } from '../../events/credit-notes.ts';
import { approvalDecider } from '../approvals/decider.ts';
import type { CodeLists } from '../invoices/code-lists.ts';
import { decideDelivery } from '../invoices/delivery-decisions.ts';
import type { RuleFinding } from '../invoices/model.ts';
import { InvoiceRuleViolation } from '../invoices/rule-violation.ts';
import { checkInvoice } from '../invoices/rules.ts';
import { evolveInvoice, initialInvoiceState, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../invoices/state.ts';
import type { RequestScope } from '../shared/access.ts';
import { creditNoteDecider } from './decider.ts';
import { creditNoteDocument } from './document.ts';
import type { CreditNoteRequest } from './model.ts';
import type { CreditNoteRail } from './rail.ts';

export interface CreateCreditNote {
  scope: RequestScope;
  credit_note_id: string;
  credit_note_number: string;
  /** YYYY-MM-DD: the credit note's issue date (today) */
  issue_date: string;
  request: CreditNoteRequest;
  rail: CreditNoteRail;
  created_by: string;
  /** the Peppol message id fixed for the `peppol` rail, as a send fixes it */
  peppol_message_id: string;
  code_lists: CodeLists;
  /** the approval request's id, for the `pending_approval` rail */
  approval_id: string;
  at: string;
}

interface CreditNoteDecision {
  /** the invoice's stream: the reservation */
  invoice: CreditNoteEvent[];
  /** the credit note's own stream: its document, then queued, delivered by hand, or up for approval */
  creditNote: InvoiceStreamEvent[];
  /** the credit note as those events leave it */
  state: KnownInvoice;
}

/** The document as the rules check an invoice's; one that EN16931 would refuse is never made. */
function checkedDocument(invoice: KnownInvoice, command: CreateCreditNote, rows: Parameters<typeof creditNoteDocument>[1]) {
  let document;
  try {
    document = creditNoteDocument(invoice, rows, {
      credit_note_number: command.credit_note_number, issue_date: command.issue_date, reason: command.request.reason, note: command.request.note ?? null,
    });
  } catch (error) {
    // the VAT of what is left drifted beyond what one document may carry (document-totals.ts)
    if (error instanceof RangeError) throw new InvoiceRuleViolation([{ rule: 'BR-CO-17', message: error.message, severity: 'fatal' }]);
    throw error;
  }
  const findings: RuleFinding[] = checkInvoice(document.content, command.code_lists);
  if (findings.some((f) => f.severity === 'fatal')) throw new InvoiceRuleViolation(findings);
  return { ...document, warnings: findings };
}

/**
 * The reservation alone (the caps, creditability, rule 10): what refuses a request before a
 * number is taken. Its rows do not depend on the number, so the decision below takes them as made.
 */
export function reserveCreditNote(command: Omit<CreateCreditNote, 'credit_note_number'>, invoiceState: InvoiceState): CreditNoteEvent[] {
  return creditNoteDecider.decide({
    type: 'ReserveCreditNote', scope: command.scope, credit_note_id: command.credit_note_id, credit_note_number: '',
    request: command.request, counted: command.rail === 'peppol' || command.rail === 'by_hand', reserved_by: command.created_by, at: command.at,
  }, invoiceState) as CreditNoteEvent[];
}

export function decideCreditNote(command: CreateCreditNote, invoiceState: InvoiceState, reservedAlready?: CreditNoteEvent[]): CreditNoteDecision {
  const reserved = (reservedAlready ?? reserveCreditNote(command, invoiceState)).map((e): CreditNoteEvent =>
    (e.type === 'CreditNoteReserved' ? { ...e, data: { ...e.data, credit_note_number: command.credit_note_number } } : e));
  const reservation = reserved.find((e) => e.type === 'CreditNoteReserved');
  if (!reservation || invoiceState.status === 'none') throw new Error(`credit note ${command.credit_note_id} was reserved already`);
  const invoice = invoiceState;

  const document = checkedDocument(invoice, command, reservation.data.rows);
  const created: CreditNoteCreated = {
    type: 'CreditNoteCreated',
    data: {
      credit_note_id: command.credit_note_id, organisation_id: invoice.organisation_id, company_id: invoice.company_id, workspace_id: invoice.workspace_id,
      created_by: command.created_by,
      credited_invoice: { invoice_id: invoice.invoice_id, invoice_number: invoice.invoice_number, issue_date: invoice.content.issue_date },
      reason: command.request.reason, content: document.content, totals: document.totals, warnings: document.warnings, created_at: command.at,
    },
  };
  let state = evolveInvoice(initialInvoiceState, created) as KnownInvoice;
  const creditNote: InvoiceStreamEvent[] = [created];
  const then = (events: InvoiceStreamEvent[]) => {
    creditNote.push(...events);
    state = events.reduce(evolveInvoice, state as InvoiceState) as KnownInvoice;
  };
  const own = { organisationId: invoice.organisation_id, companyId: invoice.company_id };
  switch (command.rail) {
    case 'peppol':
      then(decideDelivery({
        type: 'SendInvoice', invoice_id: command.credit_note_id, scope: own, queued_by: command.created_by,
        peppol_message_id: command.peppol_message_id, code_lists: command.code_lists, at: command.at,
      }, state));
      break;
    case 'by_hand':
      then(decideDelivery({
        type: 'MarkSent', invoice_id: command.credit_note_id, scope: own, marked_by: command.created_by, delivered_at: command.at,
        note: 'the buyer gets the credit note by hand (PDF): it has no electronic address, or its invoice was finished by hand', at: command.at,
      }, state));
      break;
    case 'pending_approval':
      // asked by the one who made it: another reviewer approves it (four eyes, the approvals decider)
      then(approvalDecider.decide({
        type: 'RequestApproval', invoice_id: command.credit_note_id, approval_id: command.approval_id, scope: own, requested_by: command.created_by, at: command.at,
      }, { invoice: state, approval: null }));
      break;
    case 'void_draft':
      break;
  }
  // delivered at once: issued in the same write (a full reversal voids its invoice now, not later)
  const invoiceEvents = command.rail === 'by_hand' ? [...reserved, ...issuedAtOnce(invoice, reserved, command)] : reserved;
  return { invoice: invoiceEvents, creditNote, state };
}

function issuedAtOnce(invoice: KnownInvoice, reserved: CreditNoteEvent[], command: CreateCreditNote): CreditNoteEvent[] {
  const after = reserved.reduce(evolveInvoice, invoice as InvoiceState);
  return creditNoteDecider.decide({ type: 'RecordCreditNoteIssued', credit_note_id: command.credit_note_id, at: command.at }, after) as CreditNoteEvent[];
}
