// The webhooks module's door: what other modules, the front doors and the composition root may use of it.
export { openApiWebhooks } from './events/openapi.ts';
export { webhookSecrets, type WebhookSecrets } from './secret-box.ts';
export type { Resolver } from '../../platform/http-client/target-guard.ts';
