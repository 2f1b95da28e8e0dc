/**
 * A small test CA and Access Point certificates (RSA 2048, SHA-256) made with @peculiar/x509, with
 * the Peppol subject shape (CN = the AP's seat id). Just enough for the AS4 codec's tests; the
 * fuller test PKI (chains, revocation) lives in test/support.
 */
// @peculiar/x509's tsyringe needs the Reflect metadata API loaded first (reflect-metadata comes with typeorm)
import 'reflect-metadata';
import { KeyObject, X509Certificate, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

export interface TestCa {
  name: string;
  keys: CryptoKeyPair;
  cert: x509.X509Certificate;
}

export interface TestAp {
  cn: string;
  key: KeyObject;
  cert: X509Certificate;
}

let serial = 1;
const nextSerial = () => (serial++).toString(16).padStart(2, '0');
const validity = () => ({ notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 365 * 86_400_000) });

export async function testCa(name: string): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: nextSerial(),
    name: `CN=${name}, O=Test Peppol, C=SK`,
    keys,
    signingAlgorithm: ALGORITHM,
    ...validity(),
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  return { name, keys, cert };
}

export async function testAp(ca: TestCa, cn: string): Promise<TestAp> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: nextSerial(),
    subject: `CN=${cn}, OU=PEPPOL TEST AP, O=Test Company, C=SK`,
    issuer: ca.cert.subject,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: ALGORITHM,
    ...validity(),
  });
  return { cn, key: KeyObject.from(keys.privateKey), cert: new X509Certificate(Buffer.from(cert.rawData)) };
}

/** A trust check for the codec: the sender's certificate must be issued and signed by `ca`. */
export const issuedBy = (ca: TestCa) => (cert: X509Certificate) =>
  cert.checkIssued(new X509Certificate(Buffer.from(ca.cert.rawData))) && cert.verify(new X509Certificate(Buffer.from(ca.cert.rawData)).publicKey) ? null : `not issued by ${ca.name}`;
