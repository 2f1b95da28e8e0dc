import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportPKCS8, generateKeyPair, type CryptoKey } from 'jose';
import { loadSigningKeys, type SigningKeyRing } from '../../src/modules/identity/signing-keys.ts';

export const tempDir = () => mkdtemp(path.join(tmpdir(), 'identity-'));

/** A ring from a configured PEM, with the private key kept so tests can forge what an attacker could not. */
export async function configuredRing(keyId = 'k-current', previousPublicKeys?: string): Promise<{ ring: SigningKeyRing; privateKey: CryptoKey; pem: string }> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const pem = await exportPKCS8(privateKey);
  const ring = await loadSigningKeys({ dataDir: await tempDir(), embedded: false, privateKeyPem: pem, keyId, previousPublicKeys });
  return { ring, privateKey, pem };
}

export const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const secondsAgo = (seconds: number, from = new Date()) => new Date(from.getTime() - seconds * 1000);
