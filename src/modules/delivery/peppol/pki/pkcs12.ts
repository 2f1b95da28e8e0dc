import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import * as pkijs from 'pkijs';
import { ConfigRefused } from '../../../../platform/config.ts';

export interface Pkcs12Contents {
  privateKey: KeyObject;
  certificates: X509Certificate[];
}

/**
 * Opens a PKCS#12 file (RFC 7292) with pkijs: checks its integrity MAC with the password,
 * decrypts its safe contents, and hands the shrouded key (an encrypted PKCS#8) to Node's crypto to
 * decrypt. Exactly one private key is expected. A refusal names the variable and the file, never
 * the password.
 */
export async function readPkcs12(file: string, der: Buffer, password: string): Promise<Pkcs12Contents> {
  const cannot = (why: string) => new ConfigRefused(`AS4_P12 (${file}) ${why}`);
  const secret = new TextEncoder().encode(password);
  const passwordBuffer = secret.buffer.slice(secret.byteOffset, secret.byteOffset + secret.byteLength) as ArrayBuffer;
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(new Uint8Array(der));
  } catch {
    throw cannot('is not a PKCS#12 file');
  }
  const keys: KeyObject[] = [];
  const certificates: X509Certificate[] = [];
  try {
    await pfx.parseInternalValues({ password: passwordBuffer, checkIntegrity: true });
  } catch {
    throw cannot('cannot be opened with AS4_P12_PASSWORD (a wrong password, or a damaged file)');
  }
  try {
    const safe = pfx.parsedValue?.authenticatedSafe;
    if (!safe) throw new Error('no authenticated safe');
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: passwordBuffer })) });
    for (const contents of safe.parsedValue?.safeContents ?? []) {
      for (const bag of contents.value.safeBags) {
        if (bag.bagValue instanceof pkijs.PKCS8ShroudedKeyBag) {
          keys.push(createPrivateKey({ key: Buffer.from(bag.bagValue.toSchema().toBER()), format: 'der', type: 'pkcs8', passphrase: password }));
        } else if (bag.bagValue instanceof pkijs.PrivateKeyInfo) {
          keys.push(createPrivateKey({ key: Buffer.from(bag.bagValue.toSchema().toBER()), format: 'der', type: 'pkcs8' }));
        } else if (bag.bagValue instanceof pkijs.CertBag && bag.bagValue.parsedValue instanceof pkijs.Certificate) {
          certificates.push(new X509Certificate(Buffer.from(bag.bagValue.parsedValue.toSchema().toBER())));
        }
      }
    }
  } catch {
    // the password opened it (the MAC matched): what is left is an encryption pkijs cannot undo
    throw cannot('cannot be decrypted: its contents use an encryption not supported here (legacy PBE with 3DES or RC2, as OpenSSL 1.x and old keytool wrote): export it again with AES (OpenSSL 3: openssl pkcs12 -export), or use AS4_CERT and AS4_KEY');
  }
  if (keys.length !== 1) throw cannot(`holds ${keys.length} private keys: export exactly one, with its certificate`);
  return { privateKey: keys[0] as KeyObject, certificates };
}
