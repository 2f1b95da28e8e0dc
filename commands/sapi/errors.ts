import { DomainError } from '../shared/domain-error.ts';

/** The SAPI-SK error categories (sapi-sk.md, Errors). A client retries only what says `retryable`. */
export type SapiCategory = 'AUTH' | 'VALIDATION' | 'PROCESSING' | 'QUOTA' | 'TEMPORARY' | 'PERMANENT';

export interface SapiErrorKind {
  status: number;
  category: SapiCategory;
  retryable: boolean;
}

/**
 * Every code /sapi answers with, and what it means on the wire. The first thirteen are the spec's
 * table (it gives the status of four; the others are ours, see docs/sapi.md); the last six are
 * our own for refusals the spec does not name (an unknown route, a rate limit, an internal error, the database out of reach),
 * so that nothing under /sapi answers outside the envelope.
 */
export const SAPI_ERRORS = {
  'SAPI-AUTH-001': { status: 401, category: 'AUTH', retryable: false },
  'SAPI-AUTH-LOCKED': { status: 403, category: 'AUTH', retryable: false },
  'SAPI-AUTH-PARTICIPANT': { status: 403, category: 'AUTH', retryable: false },
  'SAPI-AUTH-SCOPE': { status: 403, category: 'AUTH', retryable: false },
  'SAPI-VAL-SCOPE': { status: 400, category: 'VALIDATION', retryable: false },
  'SAPI-AUTH-IP': { status: 403, category: 'AUTH', retryable: false },
  'SAPI-VAL-001': { status: 400, category: 'VALIDATION', retryable: false },
  'SAPI-VAL-CHECKSUM': { status: 400, category: 'VALIDATION', retryable: false },
  'SAPI-VAL-VALIDATION-UNAVAILABLE': { status: 503, category: 'TEMPORARY', retryable: true },
  'SAPI-IDEMPOTENCY-CONFLICT': { status: 409, category: 'VALIDATION', retryable: false },
  'SAPI-DOC-NOT-FOUND': { status: 404, category: 'PERMANENT', retryable: false },
  'SAPI-QUOTA-INVOICE-LIMIT': { status: 402, category: 'QUOTA', retryable: false },
  'SAPI-DISABLED': { status: 503, category: 'TEMPORARY', retryable: true },
  // ours, outside the spec's table
  'SAPI-IDEMPOTENCY-IN-PROGRESS': { status: 409, category: 'PROCESSING', retryable: true },
  'SAPI-RATE-LIMIT': { status: 429, category: 'TEMPORARY', retryable: true },
  'SAPI-NOT-FOUND': { status: 404, category: 'PERMANENT', retryable: false },
  'SAPI-PAYLOAD-TOO-LARGE': { status: 413, category: 'VALIDATION', retryable: false },
  'SAPI-INTERNAL': { status: 500, category: 'TEMPORARY', retryable: true },
  'SAPI-UNAVAILABLE': { status: 503, category: 'TEMPORARY', retryable: true },
} as const satisfies Record<string, SapiErrorKind>;

export type SapiCode = keyof typeof SAPI_ERRORS;

/** One entry of `details[]`: which field, and what is wrong with it. */
export interface SapiDetail {
  field: string;
  issue: string;
}

/**
 * A refusal under /sapi. It is a DomainError (code and status from the table) so the command
 * handling treats it like every other refusal; the /sapi renderer gives it the envelope.
 */
export class SapiRefusal extends DomainError {
  constructor(
    code: SapiCode,
    message: string,
    readonly details: SapiDetail[] = [],
    /** seconds after which the same request may succeed (Retry-After), where that is known */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, SAPI_ERRORS[code].status, message);
    this.name = 'SapiRefusal';
  }

  get sapiCode(): SapiCode {
    return this.code as SapiCode;
  }
}

export const isSapiCode = (code: string): code is SapiCode => Object.hasOwn(SAPI_ERRORS, code);
