/**
 * The attachment's encryption (Peppol AS4 2.0.3 / CEF eDelivery AS4 1.14): AES-128-GCM for the
 * content, the key transported with RSA-OAEP (digest SHA-256, MGF1 with SHA-256) to the receiver's
 * certificate. Node's crypto does both; the GCM ciphertext is laid out as XML Encryption 1.1 5.2.4
 * says: the 96-bit IV, the ciphertext, the 128-bit authentication tag.
 */
import { constants, createCipheriv, createDecipheriv, privateDecrypt, publicEncrypt, randomBytes, type KeyObject, type X509Certificate } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
export const AES128_KEY_BYTES = 16;

export const newContentKey = (): Buffer => randomBytes(AES128_KEY_BYTES);

export function encryptContent(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-128-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** Throws when the key is wrong or the ciphertext was altered (GCM authenticates it). */
export function decryptContent(key: Buffer, data: Buffer): Buffer {
  if (key.length !== AES128_KEY_BYTES) throw new Error(`the content key is ${key.length} bytes, not ${AES128_KEY_BYTES}`);
  if (data.length < IV_BYTES + TAG_BYTES) throw new Error('the ciphertext is shorter than its IV and tag');
  const decipher = createDecipheriv('aes-128-gcm', key, data.subarray(0, IV_BYTES));
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
}

// Node uses the OAEP hash for MGF1 as well: exactly the SHA-256/SHA-256 pair the profile requires
export function wrapKey(receiver: X509Certificate, key: Buffer): Buffer {
  return publicEncrypt({ key: receiver.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, key);
}

export function unwrapKey(ourKey: KeyObject, wrapped: Buffer): Buffer {
  return privateDecrypt({ key: ourKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrapped);
}
