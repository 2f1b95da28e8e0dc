import { randomBytes } from 'node:crypto';
import { loadSecretKey, sealedSecrets, type SealedSecrets, type SecretBox, type SecretKeySource } from '../../platform/secret-box.ts';

/**
 * Webhook secrets at rest. svc-signature is keyed with the plaintext `whsec_` secret, so a hash
 * alone cannot sign: the secret is stored sealed (src/platform/secret-box.ts: AES-256-GCM) under the
 * service's webhook key (WEBHOOK_SECRET_KEY), and opened only to sign a delivery.
 */
export type { SecretBox };
export type WebhookSecrets = SealedSecrets;

const WEBHOOK_KEY = { what: 'webhook secret', variable: 'WEBHOOK_SECRET_KEY', file: 'webhook-secret.key' };

/** A new `whsec_` secret: 32 random bytes, base64url. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** WEBHOOK_SECRET_KEY, or on the embedded default the key kept in DATA_DIR/webhook-secret.key. */
export const loadWebhookKey = (source: SecretKeySource): Promise<Buffer> => loadSecretKey(WEBHOOK_KEY, source);

export const webhookSecrets = (source: SecretKeySource): WebhookSecrets => sealedSecrets(WEBHOOK_KEY, source);
