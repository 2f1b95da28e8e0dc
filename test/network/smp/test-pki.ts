/**
 * Certificates and keys made in the test (@peculiar/x509 over Node's WebCrypto), and the SMP's
 * signature over SignedServiceMetadata made with xml-crypto the way Peppol SMPs sign: enveloped,
 * Reference URI "", exclusive C14N, RSA-SHA256 over a SHA-256 digest, the certificate in KeyInfo.
 * Certificate *trust* is not tested here: discovery asks an injected check, and the tests' double
 * (`trusting`) accepts exactly the certificates it is given.
 */
import { X509Certificate, webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its ASN.1 parsers through tsyringe, which needs the Reflect metadata polyfill first
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';
import type { CheckCertificate, CertificatePurpose } from '../../../src/modules/delivery/peppol/certificate-check.ts';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface TestIdentity {
  certificate: X509Certificate;
  certificatePem: string;
  privateKeyPem: string;
  /** base64 DER, as an SMP writes an endpoint's Certificate */
  base64: string;
}

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

export async function makeIdentity(subject: string): Promise<TestIdentity> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const made = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Date.now().toString(16),
    name: subject,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
    signingAlgorithm: RSA,
    keys,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as unknown as webcrypto.CryptoKey));
  const certificatePem = made.toString('pem');
  return {
    certificate: new X509Certificate(certificatePem),
    certificatePem,
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`,
    base64: Buffer.from(made.rawData).toString('base64'),
  };
}

let made: { smp: TestIdentity; ap: TestIdentity } | undefined;

/** Makes the test SMP's and Access Point's keys once; call it in a `before` hook (no top-level await: mocha may require() this file). */
export async function preparePki(): Promise<void> {
  made ??= { smp: await makeIdentity('CN=SMP test smp,O=Test SMP,C=SK'), ap: await makeIdentity('CN=POP000001,O=Test AP,C=SK') };
}

function identities(): { smp: TestIdentity; ap: TestIdentity } {
  if (made === undefined) throw new Error('call preparePki() in a before hook first');
  return made;
}

/** The test SMP's signing identity. */
export const smpIdentity = (): TestIdentity => identities().smp;
/** The receiving Access Point's identity (its certificate goes into the SMP's endpoints). */
export const apIdentity = (): TestIdentity => identities().ap;

const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** Signs an SMP document as an SMP does (the whole document, enveloped). */
export function signSmp(xml: string, identity: TestIdentity = smpIdentity(), reference: { uri: string; xpath: string } = { uri: '', xpath: '/*' }): string {
  const signer = new SignedXml({
    privateKey: identity.privateKeyPem,
    publicCert: identity.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: EXC_C14N,
  });
  signer.addReference({
    xpath: reference.xpath,
    uri: reference.uri,
    isEmptyUri: reference.uri === '',
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: '/*', action: 'append' } });
  return signer.getSignedXml();
}

/** A PKI double: accepts for each purpose exactly the certificates listed, and records what it was asked. */
export function trusting(trusted: { smp?: X509Certificate[]; ap?: X509Certificate[] } = { smp: [smpIdentity().certificate], ap: [apIdentity().certificate] }) {
  const asked: { purpose: CertificatePurpose; subject: string }[] = [];
  const check: CheckCertificate = async (certificate, purpose) => {
    asked.push({ purpose, subject: certificate.subject });
    const ok = (trusted[purpose] ?? []).some((c) => c.fingerprint256 === certificate.fingerprint256);
    return ok ? { ok: true } : { ok: false, reason: 'untrusted_issuer', message: `not a Peppol ${purpose === 'ap' ? 'Access Point' : 'SMP'} certificate` };
  };
  return { check, asked };
}
