import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { keptSecretFile } from './db/data-dir-secret.ts';

/**
 * Secrets the service must be able to read back (a webhook signing secret, a TOTP secret: a hash
 * alone cannot sign or check a code) are stored sealed with AES-256-GCM (node:crypto) under a key
 * from the environment, and opened only at the moment they are used. Sealed form:
 * `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;

/** A key that is missing or not 32 bytes: the service must not start with it. */
export class SecretKeyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyConfigError';
  }
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretKeyConfigError(`a secret key must be ${KEY_BYTES} bytes (base64), got ${key.length}`);
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** Which key: what it seals (for messages), its environment variable, its file under DATA_DIR on the embedded default. */
export interface SecretKeySpec {
  what: string;
  variable: string;
  file: string;
}

export interface SecretKeySource {
  /** the environment variable's value, if set */
  configured: string | undefined;
  dataDir: string;
  /** the embedded default (no DATABASE_URL) */
  embedded: boolean;
}

/**
 * The configured key; otherwise the embedded default makes one on first start and keeps it (0600)
 * in the data directory, as it does the JWT key. A deployment on its own database must configure it.
 */
export async function loadSecretKey(spec: SecretKeySpec, source: SecretKeySource): Promise<Buffer> {
  if (source.configured) return decodeKey(source.configured, spec.variable);
  if (!source.embedded) throw new SecretKeyConfigError(`no ${spec.what} key is configured: set ${spec.variable} (32 random bytes, base64)`);
  const text = await keptSecretFile(source.dataDir, spec.file, async () => `${randomBytes(KEY_BYTES).toString('base64')}\n`);
  return decodeKey(text.trim(), path.join(source.dataDir, spec.file));
}

function decodeKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== KEY_BYTES) throw new SecretKeyConfigError(`${source} must hold ${KEY_BYTES} bytes in base64, got ${key.length}`);
  return key;
}

/** A box, loaded on first use (main.ts asks at start, so a deployment without its key does not start). */
export interface SealedSecrets {
  box(): Promise<SecretBox>;
}

export function sealedSecrets(spec: SecretKeySpec, source: SecretKeySource): SealedSecrets {
  let loading: Promise<SecretBox> | undefined;
  return { box: () => (loading ??= loadSecretKey(spec, source).then(secretBox)) };
}
