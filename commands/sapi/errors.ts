import { DomainError } from '../shared/domain-error.ts';

/** The SAPI-SK error categories (sapi-sk.md, Errors). A client retries only what says `retryable`. */
type SapiCategory = 'AUTH' | 'VALIDATION' | 'PROCESSING' | 'QUOTA' | 'TEMPORARY' | 'PERMANENT';

interface SapiErrorKind {
  category: SapiCategory;
  retryable: boolean;
}

/**
 * Every code /sapi answers with, its category and whether a client retries it. The first thirteen
 * are the spec's table; the last six are our own for refusals the spec does not name (an unknown
 * route, a rate limit, an internal error, the database out of reach), so that nothing under /sapi
 * answers outside the envelope. Their HTTP statuses are the door's: `sapiStatusOf` in
 * src/doors/sapi/errors.ts (the spec gives four; the others are ours, see docs/sapi.md).
 */
export const SAPI_ERRORS = {
  'SAPI-AUTH-001': { category: 'AUTH', retryable: false },
  'SAPI-AUTH-LOCKED': { category: 'AUTH', retryable: false },
  'SAPI-AUTH-PARTICIPANT': { category: 'AUTH', retryable: false },
  'SAPI-AUTH-SCOPE': { category: 'AUTH', retryable: false },
  'SAPI-VAL-SCOPE': { category: 'VALIDATION', retryable: false },
  'SAPI-AUTH-IP': { category: 'AUTH', retryable: false },
  'SAPI-VAL-001': { category: 'VALIDATION', retryable: false },
  'SAPI-VAL-CHECKSUM': { category: 'VALIDATION', retryable: false },
  'SAPI-VAL-VALIDATION-UNAVAILABLE': { category: 'TEMPORARY', retryable: true },
  'SAPI-IDEMPOTENCY-CONFLICT': { category: 'VALIDATION', retryable: false },
  'SAPI-DOC-NOT-FOUND': { category: 'PERMANENT', retryable: false },
  'SAPI-QUOTA-INVOICE-LIMIT': { category: 'QUOTA', retryable: false },
  'SAPI-DISABLED': { category: 'TEMPORARY', retryable: true },
  // ours, outside the spec's table
  'SAPI-IDEMPOTENCY-IN-PROGRESS': { category: 'PROCESSING', retryable: true },
  'SAPI-RATE-LIMIT': { category: 'TEMPORARY', retryable: true },
  'SAPI-NOT-FOUND': { category: 'PERMANENT', retryable: false },
  'SAPI-PAYLOAD-TOO-LARGE': { category: 'VALIDATION', retryable: false },
  'SAPI-INTERNAL': { category: 'TEMPORARY', retryable: true },
  'SAPI-UNAVAILABLE': { category: 'TEMPORARY', retryable: true },
} as const satisfies Record<string, SapiErrorKind>;

export type SapiCode = keyof typeof SAPI_ERRORS;

/** One entry of `details[]`: which field, and what is wrong with it. */
export interface SapiDetail {
  field: string;
  issue: string;
}

/**
 * A refusal under /sapi. It is a DomainError (a code of the table, no status) so the command
 * handling treats it like every other refusal; the /sapi renderer gives it the envelope.
 */
export class SapiRefusal extends DomainError<SapiCode> {
  constructor(
    code: SapiCode,
    message: string,
    readonly details: SapiDetail[] = [],
    /** seconds after which the same request may succeed (Retry-After), where that is known */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
    this.name = 'SapiRefusal';
  }

  get sapiCode(): SapiCode {
    return this.code;
  }
}

export const isSapiCode = (code: string): code is SapiCode => Object.hasOwn(SAPI_ERRORS, code);
