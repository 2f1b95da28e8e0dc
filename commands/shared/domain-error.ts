/**
 * A refusal by a business rule. `code` is the spec's `detail.error`; `status` the HTTP status the
 * spec gives it; `extra` lands beside `error` in the body. HTTP maps it; nothing else does.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? code);
    this.name = 'DomainError';
  }
}
