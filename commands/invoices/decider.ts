import { approvalVoidedBy } from '../approvals/void.ts';
import type { RequestScope } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { StandingRefusal } from '../shared/preconditions.ts';
import { invoiceFor } from './access.ts';
import { checkBounds } from './bounds.ts';
import { checkCorrectedInvoice } from './corrected-invoice.ts';
import type { CodeLists } from './code-lists.ts';
import { decideDelivery, type DeliveryCommand } from './delivery-decisions.ts';
import type { InvoiceContent, InvoiceTotals, RuleFinding } from './model.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import { checkInvoice } from './rules.ts';
import { isEditable } from './editable.ts';
import { evolveInvoice, initialInvoiceState, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from './state.ts';
import { computeTotals } from './totals.ts';
import { validationPassed, type ValidationOutcome } from './validation.ts';

export type { InvoiceState, KnownInvoice } from './state.ts';

/**
 * The invoice a replacement (PUT) is asked of, or the refusals that stand whatever is sent and
 * whatever version the client read: not found (or not the caller's), a credit note made through
 * the credit-note route (locked for good), a status that is not edited. They come before If-Match
 * is asked for or compared (commands/shared/preconditions.ts); UpdateInvoice makes them first too.
 */
export function replaceableInvoice(state: InvoiceState, scope: RequestScope): KnownInvoice {
  const invoice = invoiceFor(state, scope);
  // its rows were reserved from the invoice it credits: editing them would credit what was never checked
  if (invoice.credited_invoice) {
    throw new StandingRefusal('locked_credit_note', `a credit note made through the credit-note route cannot be changed (it credits invoice ${invoice.credited_invoice.invoice_number})`, {
      credited_invoice_id: invoice.credited_invoice.invoice_id,
    });
  }
  if (!isEditable(invoice)) {
    const why = invoice.source === 'peppol' ? 'a received invoice is read-only' : `an invoice in status ${invoice.status} cannot be changed`;
    throw new StandingRefusal('invalid_status', why, { status: invoice.status });
  }
  return invoice;
}

export type InvoiceCommand =
  | {
      type: 'CreateInvoice';
      invoice_id: string;
      organisation_id: string;
      company_id: string;
      workspace_id: string;
      created_by: string;
      number_source: 'series' | 'client';
      content: InvoiceContent;
      code_lists: CodeLists;
      at: string;
    }
  | {
      type: 'UpdateInvoice';
      invoice_id: string;
      /** the caller's scope: an invoice it may not see is not found (access.ts) */
      scope: RequestScope;
      updated_by: string;
      content: InvoiceContent;
      code_lists: CodeLists;
      at: string;
    }
  | {
      /** the outcome of validating the invoice (the validator ran outside); a passing draft becomes validated */
      type: 'RecordValidation';
      invoice_id: string;
      scope: RequestScope;
      validated_by: string;
      outcome: ValidationOutcome;
      at: string;
    }
  | DeliveryCommand;

/**
 * The rule findings of content; fatal findings refuse it with the spec's 422 (InvoiceRuleViolation),
 * and so do numbers beyond what every read model and the UBL hold (InvalidFields, bounds.ts) and a
 * corrected invoice naming no preceding one (InvalidFields, corrected-invoice.ts). The
 * decider checks every content with it, before anything is appended: a refused create takes no number.
 */
export function checkInvoiceContent(content: InvoiceContent, lists: CodeLists): { findings: RuleFinding[]; totals: InvoiceTotals } {
  const bounded = checkBounds(content);
  checkCorrectedInvoice(content);
  // bounds computed the totals already, unless a decimal was invalid, which the rules refuse (SK-J-02)
  const findings: RuleFinding[] = checkInvoice(content, lists, bounded);
  if (findings.some((f) => f.severity === 'fatal')) throw new InvoiceRuleViolation(findings);
  return { findings, totals: bounded ?? computeTotals(content) };
}

/** Totals and warnings of content the rules accept (checkInvoiceContent). */
function priced(content: InvoiceContent, lists: CodeLists) {
  const { findings, totals } = checkInvoiceContent(content, lists);
  return { totals, warnings: findings };
}

export const invoiceDecider: Decider<InvoiceCommand, InvoiceStreamEvent, InvoiceState> = {
  initialState: initialInvoiceState,

  decide(command, state) {
    switch (command.type) {
      case 'CreateInvoice': {
        if (state.status !== 'none') throw new DomainError('invoice_exists', 'invoice already exists');
        const { totals, warnings } = priced(command.content, command.code_lists);
        return [
          {
            type: 'InvoiceCreated',
            data: {
              invoice_id: command.invoice_id,
              organisation_id: command.organisation_id,
              company_id: command.company_id,
              workspace_id: command.workspace_id,
              created_by: command.created_by,
              number_source: command.number_source,
              content: command.content,
              totals,
              warnings,
              created_at: command.at,
            },
          },
        ];
      }
      case 'UpdateInvoice': {
        const invoice = replaceableInvoice(state, command.scope);
        if (command.content.invoice_number !== invoice.invoice_number) {
          throw new DomainError('invoice_number_immutable', 'the invoice number cannot be changed once reserved', {
            invoice_number: invoice.invoice_number,
          });
        }
        const { totals, warnings } = priced(command.content, command.code_lists);
        return [
          {
            type: 'InvoiceUpdated',
            data: { invoice_id: command.invoice_id, updated_by: command.updated_by, content: command.content, totals, warnings, updated_at: command.at },
          },
          // what was approved is not what would be sent any more
          ...approvalVoidedBy(invoice, { change: 'invoice_updated', content: command.content, totals, by: command.updated_by, at: command.at }),
        ];
      }
      case 'RecordValidation': {
        const invoice = invoiceFor(state, command.scope);
        // failing findings are the answer, and the status stays; validating any other status
        // (validated already, or past it) reports and changes nothing
        if (!validationPassed(command.outcome) || invoice.status !== 'draft' || invoice.source !== 'api') return [];
        return [{ type: 'InvoiceValidated', data: { invoice_id: command.invoice_id, validated_by: command.validated_by, validated_at: command.at } }];
      }
      default:
        return decideDelivery(command, state);
    }
  },

  evolve: evolveInvoice,
};
