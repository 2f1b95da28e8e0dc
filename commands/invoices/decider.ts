import type { InvoiceEvent, InvoiceStatus } from '../../events/invoices.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import type { CodeLists } from './code-lists.ts';
import type { InvoiceContent, InvoiceTotals, RuleFinding } from './model.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import { checkInvoice } from './rules.ts';
import { computeTotals } from './totals.ts';

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
      /** the caller's organisation: an invoice of another one is not found */
      organisation_id: string;
      updated_by: string;
      content: InvoiceContent;
      code_lists: CodeLists;
      at: string;
    }
  | { type: 'MarkValidated'; invoice_id: string; organisation_id: string; validated_by: string; at: string };

/** The invoice as its events leave it: what the rules decide on, and what validation, UBL and history read. */
export type InvoiceState =
  | { status: 'none' }
  | {
      status: InvoiceStatus;
      invoice_id: string;
      organisation_id: string;
      company_id: string;
      invoice_number: string;
      content: InvoiceContent;
      totals: InvoiceTotals;
      warnings: RuleFinding[];
    };

/** PUT replaces the content while nothing has left the service: a draft, or a validated invoice (which becomes a draft again). */
export const EDITABLE_STATUSES: readonly InvoiceStatus[] = ['draft', 'validated'];

const notFound = () => new DomainError('invoice_not_found', 404, 'invoice not found');

/** Totals and rule findings of content; fatal findings refuse the command with the spec's 422. */
function priced(content: InvoiceContent, lists: CodeLists) {
  const findings = checkInvoice(content, lists);
  if (findings.some((f) => f.severity === 'fatal')) throw new InvoiceRuleViolation(findings);
  return { totals: computeTotals(content), warnings: findings };
}

export const invoiceDecider: Decider<InvoiceCommand, InvoiceEvent, InvoiceState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateInvoice': {
        if (state.status !== 'none') throw new DomainError('invoice_exists', 409, 'invoice already exists');
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
        if (state.status === 'none' || state.organisation_id !== command.organisation_id) throw notFound();
        if (!EDITABLE_STATUSES.includes(state.status)) {
          throw new DomainError('invalid_status', 409, `an invoice in status ${state.status} cannot be changed`, { status: state.status });
        }
        if (command.content.invoice_number !== state.invoice_number) {
          throw new DomainError('invoice_number_immutable', 409, 'the invoice number cannot be changed once reserved', {
            invoice_number: state.invoice_number,
          });
        }
        const { totals, warnings } = priced(command.content, command.code_lists);
        return [
          {
            type: 'InvoiceUpdated',
            data: { invoice_id: command.invoice_id, updated_by: command.updated_by, content: command.content, totals, warnings, updated_at: command.at },
          },
        ];
      }
      case 'MarkValidated':
        if (state.status === 'none' || state.organisation_id !== command.organisation_id) throw notFound();
        if (state.status === 'validated') return [];
        if (state.status !== 'draft') {
          throw new DomainError('invalid_status', 409, `an invoice in status ${state.status} cannot be validated`, { status: state.status });
        }
        return [{ type: 'InvoiceValidated', data: { invoice_id: command.invoice_id, validated_by: command.validated_by, validated_at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'InvoiceCreated':
        return {
          status: 'draft',
          invoice_id: event.data.invoice_id,
          organisation_id: event.data.organisation_id,
          company_id: event.data.company_id,
          invoice_number: event.data.content.invoice_number,
          content: event.data.content,
          totals: event.data.totals,
          warnings: event.data.warnings,
        };
      case 'InvoiceUpdated':
        return state.status === 'none'
          ? state
          : { ...state, status: 'draft', content: event.data.content, totals: event.data.totals, warnings: event.data.warnings };
      case 'InvoiceValidated':
        return state.status === 'none' ? state : { ...state, status: 'validated' };
    }
  },
};
