import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;

/** SHA-256 (hex) of a presented secret: the only form in which keys and client secrets are stored. */
export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new API key: `svc_` + 256 random bits; its prefix tells keys apart, its hash finds it. */
export function newApiKey(): { plaintext: string; prefix: string; hash: string } {
  const plaintext = `svc_${randomBytes(32).toString('base64url')}`;
  return { plaintext, prefix: plaintext.slice(0, 12), hash: sha256Hex(plaintext) };
}

/** A random secret for a client credential (SAPI-SK, OAuth), shown once. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const SCRYPT = { N: 16384, r: 8, p: 1 };

/** A user password as scrypt with a random salt, parameters kept beside the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}
