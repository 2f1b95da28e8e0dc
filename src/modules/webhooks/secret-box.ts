import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { keptSecretFile } from '../../platform/db/data-dir-secret.ts';

/**
 * Webhook secrets at rest. svc-signature is keyed with the plaintext `whsec_` secret, so a hash
 * alone cannot sign: the secret is stored sealed with AES-256-GCM (node:crypto) under the service's
 * webhook key (WEBHOOK_SECRET_KEY), and opened only to sign a delivery. Sealed form:
 * `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const KEY_FILE = 'webhook-secret.key';

export class WebhookKeyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookKeyConfigError';
  }
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new WebhookKeyConfigError(`the webhook secret key must be ${KEY_BYTES} bytes (base64), got ${key.length}`);
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed webhook secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** A new `whsec_` secret: 32 random bytes, base64url. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * The configured key; otherwise the embedded default makes one on first start and keeps it (0600)
 * in the data directory, as it does the JWT key. A deployment on its own database must configure it.
 */
export async function loadWebhookKey(options: { configured: string | undefined; dataDir: string; embedded: boolean }): Promise<Buffer> {
  if (options.configured) return decodeKey(options.configured, 'WEBHOOK_SECRET_KEY');
  if (!options.embedded) throw new WebhookKeyConfigError('no webhook secret key is configured: set WEBHOOK_SECRET_KEY (32 random bytes, base64)');
  const text = await keptSecretFile(options.dataDir, KEY_FILE, async () => `${randomBytes(KEY_BYTES).toString('base64')}\n`);
  return decodeKey(text.trim(), path.join(options.dataDir, KEY_FILE));
}

function decodeKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== KEY_BYTES) throw new WebhookKeyConfigError(`${source} must hold ${KEY_BYTES} bytes in base64, got ${key.length}`);
  return key;
}

/** The box, loaded on first use (main.ts asks at start, so a deployment without a key does not start). */
export interface WebhookSecrets {
  box(): Promise<SecretBox>;
}

export function webhookSecrets(options: { configured: string | undefined; dataDir: string; embedded: boolean }): WebhookSecrets {
  let loading: Promise<SecretBox> | undefined;
  return { box: () => (loading ??= loadWebhookKey(options).then(secretBox)) };
}
