import type { DomainErrorCode } from './error-codes.ts';

/**
 * A refusal by a business rule. `code` is the spec's `detail.error` (declared in error-codes.ts);
 * `extra` lands beside `error` in the body. It carries no HTTP status: each front door maps the
 * code to its own status and envelope (src/doors/native/errors.ts, src/doors/sapi/errors.ts).
 * `Code` is another vocabulary only for a door's own refusals (SapiRefusal's SAPI-SK codes).
 */
export class DomainError<Code extends string = DomainErrorCode> extends Error {
  constructor(
    readonly code: NoInfer<Code>,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? code);
    this.name = 'DomainError';
  }
}
