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
