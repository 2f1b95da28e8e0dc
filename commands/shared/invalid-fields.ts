/** One field a business rule refuses, in the spec's request-body 422 shape. */
export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
}

/**
 * Refusal of field values by a domain rule (a checksum, a pairing of fields) that a JSON Schema
 * cannot express. HTTP answers it exactly like a request-body error: 422 `{detail: FieldProblem[]}`.
 */
export class InvalidFields extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super(problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; '));
    this.name = 'InvalidFields';
  }
}

/** Collects problems field by field, then throws them all at once. */
export function checkFields(check: (problem: (field: string, msg: string, input: unknown) => void) => void): void {
  const problems: FieldProblem[] = [];
  check((field, msg, input) => problems.push({ loc: ['body', field], msg, type: 'value_error', input }));
  if (problems.length > 0) throw new InvalidFields(problems);
}
