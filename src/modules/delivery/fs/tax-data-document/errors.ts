/** Why a TDD could not be built. Callers catch this one type for every document problem. */
export class TddBuildError extends Error {
  constructor(
    /**
     * `TDD-MISSING-FIELD` (a field the TDD requires is absent from the UBL), `TDD-BAD-HEADER` (a
     * header value the caller passed cannot be written), or the UBL reader's refusal (`XML-DOCTYPE`,
     * `XML-MALFORMED`, `XML-TOO-LARGE`, `XML-TOO-DEEP`, `XML-NOT-UBL`).
     */
    readonly rule: string,
    message: string,
    /** The UBL XPath (relative to the document or its line) or the header field concerned. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'TddBuildError';
  }
}

export function missing(field: string, what: string): TddBuildError {
  return new TddBuildError('TDD-MISSING-FIELD', `A TDD cannot be built: ${what} is missing (${field}).`, field);
}
