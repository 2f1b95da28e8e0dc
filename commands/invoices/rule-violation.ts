import type { RuleFinding } from './model.ts';

/**
 * An invoice refused by business rules: HTTP answers the spec's invoice-validation 422,
 * `{detail: {message, errors: [{rule, message, severity, field}], warnings: [...]}}`. `errors` holds
 * only what refuses the invoice (fatal findings), so a caller can act on the list as it stands;
 * the warnings the content also gets are in their own list, as validate has them, so nothing is
 * hidden and nothing is mistaken for a refusal.
 */
export class InvoiceRuleViolation extends Error {
  constructor(readonly findings: RuleFinding[]) {
    super(`the invoice breaks ${findings.filter((f) => f.severity === 'fatal').length} business rule(s)`);
    this.name = 'InvoiceRuleViolation';
  }

  /** The findings that refuse the invoice. */
  get errors(): RuleFinding[] {
    return this.findings.filter((f) => f.severity === 'fatal');
  }

  /** The findings that do not refuse it. */
  get warnings(): RuleFinding[] {
    return this.findings.filter((f) => f.severity !== 'fatal');
  }
}
