import type { RuleFinding } from './model.ts';

/**
 * An invoice refused by business rules: HTTP answers the spec's invoice-validation 422,
 * `{detail: {message, errors: [{rule, message, severity, field}]}}`, warnings included so the
 * caller sees everything at once.
 */
export class InvoiceRuleViolation extends Error {
  constructor(readonly findings: RuleFinding[]) {
    super(`the invoice breaks ${findings.filter((f) => f.severity === 'fatal').length} business rule(s)`);
    this.name = 'InvoiceRuleViolation';
  }
}
