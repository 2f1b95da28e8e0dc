export { createClient, apiRoot, type NativeClient, type NativeClientOptions, type NativeCredentials } from './native.ts';
export { createSapiClient, sapiRoot, type SapiClient, type SapiClientOptions } from './sapi.ts';
export { SapiAuthError, type SapiCredentials, type SapiToken, type TokenSource } from './sapi-tokens.ts';
export { isRetryable, retryAfterMs, IDEMPOTENCY_HEADER, type Fetch, type RetryOptions } from './retry.ts';
export { verifyWebhook, type RawBody, type VerifyWebhookOptions, type WebhookHeaders, type WebhookVerification } from './webhooks.ts';
export type { paths as NativePaths, operations as NativeOperations } from './generated/native.ts';
export type { paths as SapiPaths, operations as SapiOperations } from './generated/sapi.ts';
export { ok, ServiceError } from './errors.ts';
export type { Relaxed } from './relaxed.ts';
