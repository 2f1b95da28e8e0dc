import type { InvoiceValidationFailed } from '../../events/invoices.ts';
import { hasLeft } from './delivery.ts';
import type { KnownInvoice } from './state.ts';

/**
 * What validating an invoice found, stage by stage: the business rules, and the official stages
 * on the UBL (XSD, CEN/Peppol, Slovak), each null when it could not run (its artefacts are not
 * loaded). The validator is I/O; its outcome comes into the decider as data.
 */
export interface ValidationOutcome {
  business_rules_valid: boolean;
  xsd_valid: boolean | null;
  peppol_valid: boolean | null;
  slovak_valid: boolean | null;
}

/** Valid only when every stage ran and passed: a stage that could not run proves nothing. */
export function validationPassed(outcome: ValidationOutcome): boolean {
  return outcome.business_rules_valid && outcome.xsd_valid === true && outcome.peppol_valid === true && outcome.slovak_valid === true;
}

/** How many findings a failed validation keeps (error_count counts them all). */
export const RECORDED_VALIDATION_ERRORS = 50;

/**
 * What a failed validation records (invoice.validation_failed is published from it): only for an
 * invoice issued here that has not left the service, where the answer is something to act on.
 * A passing validation, a received copy, or an invoice already sent records nothing.
 */
export function validationFailure(
  invoice: KnownInvoice,
  input: { outcome: ValidationOutcome; errors: readonly { rule: string; message: string; location: string | null }[]; validated_by: string; at: string },
): InvoiceValidationFailed | null {
  if (validationPassed(input.outcome) || invoice.source !== 'api' || hasLeft(invoice.delivery)) return null;
  return {
    type: 'InvoiceValidationFailed',
    data: {
      invoice_id: invoice.invoice_id, organisation_id: invoice.organisation_id, company_id: invoice.company_id, validated_by: input.validated_by,
      business_rules_valid: input.outcome.business_rules_valid, xsd_valid: input.outcome.xsd_valid, peppol_valid: input.outcome.peppol_valid,
      slovak_valid: input.outcome.slovak_valid, error_count: input.errors.length,
      errors: input.errors.slice(0, RECORDED_VALIDATION_ERRORS).map((e) => ({ rule: e.rule, message: e.message, location: e.location })),
      failed_at: input.at,
    },
  };
}
