/**
 * A Peppol-shaped test PKI, built in the test with @peculiar/x509 (certificates, CRLs) and pkijs
 * (OCSP answers, PKCS#12): nothing from the internet, nothing checked in.
 *
 *   const pki = await startTestPki();                        // root, AP CA, SMP CA, another CA, a responder
 *   const ap = await pki.issue('ap', { cn: 'POP000123' });   // CN=POP000123, OU=PEPPOL TEST AP, O=…, C=SK
 *   pki.env(ap)                                              // AS4_CERT, AS4_KEY, PEPPOL_AP_TRUST, PEPPOL_SMP_TRUST
 *   pki.revoke(ap);                                          // its OCSP answer and the CRL say so from now on
 *   await pki.close();
 *
 * The chain is Peppol's: `PEPPOL ROOT TEST CA - G2` issues `PEPPOL ACCESS POINT TEST CA - G2` and
 * `PEPPOL SERVICE METADATA PUBLISHER TEST CA - G2`, which issue Access Point and SMP certificates.
 * `pki.other` is a CA nobody trusts (a certificate "from another CA"). Every issued certificate
 * names the local responder (loopback HTTP) as its OCSP responder (AIA) and CRL distribution
 * point, unless told otherwise (`ocsp: null`, `crl: null`, or a URL, say `pki.deadUrl`).
 * Files (PEM, encrypted PEM, PKCS#12) go to a temporary directory removed by close().
 */
import { X509Certificate as NodeCertificate, createPrivateKey, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as x509 from '../../src/modules/delivery/peppol/pki/x509.ts';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const RSA: RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
const DAY = 86_400_000;

export interface TestCa {
  name: string;
  certificate: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
  /** the key for pkijs (OCSP signing) */
  pkijs: pkijs.Certificate;
}

export interface TestCertificate {
  certificate: x509.X509Certificate;
  /** the same as Node sees it: what the code under test takes */
  node: NodeCertificate;
  keys: CryptoKeyPair;
  pem: string;
  /** PKCS#8, unencrypted */
  keyPem: string;
  issuer: TestCa;
  /** written on issue: the certificate and its key */
  files: { cert: string; key: string };
}

export interface IssueOptions {
  cn?: string;
  /** default: yesterday to in a year */
  notBefore?: Date;
  notAfter?: Date;
  /** default: the purpose's CA (AP CA or SMP CA); `pki.root` or `pki.other` for the refusal cases */
  issuer?: TestCa;
  /** the OCSP responder's URL in AIA; null: none; default: the local responder */
  ocsp?: string | null;
  /** the CRL distribution point; null: none; default: the local responder */
  crl?: string | null;
  /** make it a CA certificate (basicConstraints cA) */
  ca?: boolean;
  /** its key usage (default: a CA's or an end entity's); a misissued certificate may allow keyCertSign without being a CA */
  keyUsage?: x509.KeyUsageFlags;
}

export interface TestPki {
  dir: string;
  root: TestCa;
  apCa: TestCa;
  smpCa: TestCa;
  /** a root of its own that no bundle holds */
  other: TestCa;
  /** PEM bundles: AP CA + root, SMP CA + root */
  files: { apTrust: string; smpTrust: string };
  /** the local responder: `${responderUrl}/ocsp/<ca>` and `${responderUrl}/crl/<ca>.crl` */
  responderUrl: string;
  /** a loopback URL where nothing listens (an unreachable responder) */
  deadUrl: string;
  /** requests the responder answered, by kind */
  requests: { ocsp: number; crl: number };
  /** `ok` answers; `error` answers HTTP 503 (reachable, but no status) */
  responderMode: 'ok' | 'error';
  /** OCSP answers signed by a responder certificate the CA delegated to (id-kp-OCSPSigning, carried in the answer), as large CAs do; default: by the CA itself */
  delegatedOcsp: boolean;
  issue(purpose: 'ap' | 'smp', options?: IssueOptions): Promise<TestCertificate>;
  revoke(certificate: TestCertificate): void;
  /** the key as encrypted PKCS#8 PEM (AES-256-CBC), written to a file */
  writeEncryptedKey(certificate: TestCertificate, passphrase: string): string;
  /** the key, the certificate and its CA chain as PKCS#12 (PBES2/AES, HMAC-SHA-256 integrity), written to a file */
  writeP12(certificate: TestCertificate, password: string): Promise<string>;
  /** the environment of an AS4 Access Point running with `certificate` (PEM files) */
  env(certificate: TestCertificate): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestPki(): Promise<TestPki> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peppol-pki-'));
  const root = await selfSignedCa('root', 'CN=PEPPOL ROOT TEST CA - G2, OU=FOR TEST ONLY, O=OpenPEPPOL AISBL, C=BE');
  const apCa = await subordinateCa('ap-ca', 'CN=PEPPOL ACCESS POINT TEST CA - G2, OU=FOR TEST ONLY, O=OpenPEPPOL AISBL, C=BE', root);
  const smpCa = await subordinateCa('smp-ca', 'CN=PEPPOL SERVICE METADATA PUBLISHER TEST CA - G2, OU=FOR TEST ONLY, O=OpenPEPPOL AISBL, C=BE', root);
  const other = await selfSignedCa('other', 'CN=SOME OTHER ACCESS POINT CA, O=Nobody We Trust, C=XX');
  const cas = new Map([root, apCa, smpCa, other].map((ca) => [ca.name, ca]));
  const revoked = new Map<string, Set<string>>(); // CA name → serial numbers (hex, lower case)

  const files = { apTrust: path.join(dir, 'ap-trust.pem'), smpTrust: path.join(dir, 'smp-trust.pem') };
  writeFileSync(files.apTrust, apCa.pem + root.pem);
  writeFileSync(files.smpTrust, smpCa.pem + root.pem);

  const state = { mode: 'ok' as 'ok' | 'error', delegated: false, requests: { ocsp: 0, crl: 0 } };
  const delegates = new Map<string, Promise<{ certificate: x509.X509Certificate; keys: CryptoKeyPair }>>();
  const delegateOf = (ca: TestCa) => {
    let made = delegates.get(ca.name);
    if (!made) delegates.set(ca.name, (made = ocspResponderOf(ca)));
    return made;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void respond(req.method ?? 'GET', req.url ?? '/', Buffer.concat(chunks)).then(
        (answer) => res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  async function respond(method: string, url: string, body: Buffer): Promise<{ status: number; type: string; body: Uint8Array }> {
    if (state.mode === 'error') return { status: 503, type: 'text/plain', body: Buffer.from('down') };
    const ocsp = /^\/ocsp\/([\w-]+)$/.exec(url);
    const ca = cas.get((ocsp?.[1] ?? /^\/crl\/([\w-]+)\.crl$/.exec(url)?.[1]) ?? '');
    if (!ca) return { status: 404, type: 'text/plain', body: Buffer.from('no such CA') };
    const serials = revoked.get(ca.name) ?? new Set<string>();
    if (ocsp && method === 'POST') {
      state.requests.ocsp++;
      return { status: 200, type: 'application/ocsp-response', body: await ocspAnswer(ca, body, serials, state.delegated ? await delegateOf(ca) : undefined) };
    }
    state.requests.crl++;
    return { status: 200, type: 'application/pkix-crl', body: new Uint8Array(await crlOf(ca, serials)) };
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const responderUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deadUrl = await closedPortUrl();

  let count = 0;
  const pki: TestPki = {
    dir, root, apCa, smpCa, other, files, responderUrl, deadUrl,
    get requests() {
      return state.requests;
    },
    get responderMode() {
      return state.mode;
    },
    set responderMode(mode) {
      state.mode = mode;
    },
    get delegatedOcsp() {
      return state.delegated;
    },
    set delegatedOcsp(on) {
      state.delegated = on;
    },
    async issue(purpose, options = {}) {
      const issuer = options.issuer ?? (purpose === 'ap' ? apCa : smpCa);
      const cn = options.cn ?? `${purpose === 'ap' ? 'POP' : 'PSK'}${String(100 + ++count).padStart(6, '0')}`;
      const subject = `CN=${cn}, OU=PEPPOL TEST ${purpose === 'ap' ? 'AP' : 'SMP'}, O=Testovacia spoločnosť s.r.o., C=SK`;
      const keys = await globalThis.crypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
      const ocspUrl = options.ocsp === undefined ? `${responderUrl}/ocsp/${issuer.name}` : options.ocsp;
      const crlUrl = options.crl === undefined ? `${responderUrl}/crl/${issuer.name}.crl` : options.crl;
      const certificate = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject,
        issuer: issuer.certificate.subject,
        notBefore: options.notBefore ?? new Date(Date.now() - DAY),
        notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
        publicKey: keys.publicKey,
        signingKey: issuer.keys.privateKey,
        signingAlgorithm: RSA,
        extensions: [
          new x509.BasicConstraintsExtension(options.ca === true, undefined, true),
          new x509.KeyUsagesExtension(options.keyUsage ?? (options.ca ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.dataEncipherment), true),
          await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
          await x509.AuthorityKeyIdentifierExtension.create(issuer.certificate),
          ...(ocspUrl ? [new x509.AuthorityInfoAccessExtension({ ocsp: ocspUrl })] : []),
          ...(crlUrl ? [new x509.CRLDistributionPointsExtension([crlUrl])] : []),
        ],
      });
      const pem = certificate.toString('pem') + '\n';
      const keyPem = pkcs8Pem(await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey));
      const base = path.join(dir, `${cn}-${count}`);
      writeFileSync(`${base}.cert.pem`, pem);
      writeFileSync(`${base}.key.pem`, keyPem);
      return { certificate, node: new NodeCertificate(pem), keys, pem, keyPem, issuer, files: { cert: `${base}.cert.pem`, key: `${base}.key.pem` } };
    },
    revoke(certificate) {
      const serials = revoked.get(certificate.issuer.name) ?? new Set<string>();
      serials.add(normalSerial(certificate.certificate.serialNumber));
      revoked.set(certificate.issuer.name, serials);
    },
    writeEncryptedKey(certificate, passphrase) {
      const file = certificate.files.key.replace(/\.key\.pem$/, '.key.encrypted.pem');
      writeFileSync(file, createPrivateKey(certificate.keyPem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }));
      return file;
    },
    async writeP12(certificate, password) {
      const file = certificate.files.key.replace(/\.key\.pem$/, '.p12');
      writeFileSync(file, await pkcs12Of(certificate, password));
      return file;
    },
    env(certificate) {
      return { PEPPOL_NETWORK: 'as4', AS4_CERT: certificate.files.cert, AS4_KEY: certificate.files.key, PEPPOL_AP_TRUST: files.apTrust, PEPPOL_SMP_TRUST: files.smpTrust };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return pki;
}

async function selfSignedCa(name: string, subject: string): Promise<TestCa> {
  const keys = await globalThis.crypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(), name: subject, keys, signingAlgorithm: RSA,
    notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() + 3650 * DAY),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return caOf(name, certificate, keys);
}

async function subordinateCa(name: string, subject: string, root: TestCa): Promise<TestCa> {
  const keys = await globalThis.crypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(), subject, issuer: root.certificate.subject, publicKey: keys.publicKey, signingKey: root.keys.privateKey, signingAlgorithm: RSA,
    notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() + 3000 * DAY),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root.certificate),
    ],
  });
  return caOf(name, certificate, keys);
}

function caOf(name: string, certificate: x509.X509Certificate, keys: CryptoKeyPair): TestCa {
  return { name, certificate, keys, pem: certificate.toString('pem') + '\n', pkijs: pkijs.Certificate.fromBER(new Uint8Array(certificate.rawData)) };
}

/** A positive 16-byte serial (the high bit cleared), as CAs make them. */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f | 0x01;
  return bytes.toString('hex');
}

function normalSerial(hex: string): string {
  return hex.toLowerCase().replace(/^(00)+/, '');
}

function pkcs8Pem(der: ArrayBuffer): string {
  return x509.PemConverter.encode(der, 'PRIVATE KEY') + '\n';
}

/** The CA's OCSP answer to a request: good, or revoked for the serials in `revoked`; signed by the CA itself, valid an hour. */
async function ocspAnswer(ca: TestCa, body: Buffer, revoked: Set<string>, delegate?: { certificate: x509.X509Certificate; keys: CryptoKeyPair }): Promise<Uint8Array> {
  const request = pkijs.OCSPRequest.fromBER(new Uint8Array(body));
  const basic = new pkijs.BasicOCSPResponse();
  const signer = delegate ? pkijs.Certificate.fromBER(new Uint8Array(delegate.certificate.rawData)) : ca.pkijs;
  basic.tbsResponseData.responderID = signer.subject;
  if (delegate) basic.certs = [signer];
  basic.tbsResponseData.producedAt = new Date();
  for (const { reqCert } of request.tbsRequest.requestList) {
    const hex = normalSerial(Buffer.from(reqCert.serialNumber.valueBlock.valueHexView).toString('hex'));
    const certStatus = revoked.has(hex)
      ? new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [new asn1js.GeneralizedTime({ valueDate: new Date(Date.now() - 60_000) })] })
      : new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } });
    basic.tbsResponseData.responses.push(new pkijs.SingleResponse({ certID: reqCert, certStatus, thisUpdate: new Date(Date.now() - 60_000), nextUpdate: new Date(Date.now() + 3_600_000) }));
  }
  await basic.sign(delegate ? delegate.keys.privateKey : ca.keys.privateKey, 'SHA-256');
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({ responseType: pkijs.id_PKIX_OCSP_Basic, response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }) }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

/** A certificate the CA issues to its OCSP responder: id-kp-OCSPSigning, no revocation check of its own (id-pkix-ocsp-nocheck). */
async function ocspResponderOf(ca: TestCa): Promise<{ certificate: x509.X509Certificate; keys: CryptoKeyPair }> {
  const keys = await globalThis.crypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(), subject: `CN=OCSP RESPONDER ${ca.name.toUpperCase()}, O=OpenPEPPOL AISBL, C=BE`, issuer: ca.certificate.subject,
    notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 30 * DAY),
    publicKey: keys.publicKey, signingKey: ca.keys.privateKey, signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.ocspSigning]),
      new x509.Extension('1.3.6.1.5.5.7.48.1.5', false, new Uint8Array([0x05, 0x00])),
      await x509.AuthorityKeyIdentifierExtension.create(ca.certificate),
    ],
  });
  return { certificate, keys };
}

async function crlOf(ca: TestCa, revoked: Set<string>): Promise<ArrayBuffer> {
  const crl = await x509.X509CrlGenerator.create({
    issuer: ca.certificate.subject,
    thisUpdate: new Date(Date.now() - 60_000),
    nextUpdate: new Date(Date.now() + 3_600_000),
    entries: [...revoked].map((serialNumber) => ({ serialNumber, revocationDate: new Date(Date.now() - 60_000), reason: x509.X509CrlReason.keyCompromise })),
    signingKey: ca.keys.privateKey,
    signingAlgorithm: RSA,
  });
  return crl.rawData;
}

/** PKCS#12 the way OpenSSL 3 writes it: the key shrouded (PBES2, AES-256-CBC), the certificates encrypted, an HMAC-SHA-256 integrity MAC. */
async function pkcs12Of(certificate: TestCertificate, password: string): Promise<Uint8Array> {
  const secret = new TextEncoder().encode(password);
  const passwordBuffer = secret.buffer.slice(secret.byteOffset, secret.byteOffset + secret.byteLength) as ArrayBuffer;
  const keyInfo = pkijs.PrivateKeyInfo.fromBER(new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', certificate.keys.privateKey)));
  const certBag = (c: x509.X509Certificate) => new pkijs.SafeBag({ bagId: '1.2.840.113549.1.12.10.1.3', bagValue: new pkijs.CertBag({ parsedValue: pkijs.Certificate.fromBER(new Uint8Array(c.rawData)) }) });
  const encryption = { password: passwordBuffer, contentEncryptionAlgorithm: { name: 'AES-CBC', length: 256 } as pkijs.ContentEncryptionAlgorithm, hmacHashAlgorithm: 'SHA-256', iterationCount: 2048 };
  const keyBag = new pkijs.PKCS8ShroudedKeyBag({ parsedValue: keyInfo });
  await keyBag.makeInternalValues(encryption);
  const pfx = new pkijs.PFX({
    parsedValue: {
      integrityMode: 0,
      authenticatedSafe: new pkijs.AuthenticatedSafe({
        parsedValue: {
          safeContents: [
            { privacyMode: 0, value: new pkijs.SafeContents({ safeBags: [new pkijs.SafeBag({ bagId: '1.2.840.113549.1.12.10.1.2', bagValue: keyBag })] }) },
            { privacyMode: 1, value: new pkijs.SafeContents({ safeBags: [certBag(certificate.certificate), certBag(certificate.issuer.certificate)] }) },
          ],
        },
      }),
    },
  });
  const safe = pfx.parsedValue?.authenticatedSafe as pkijs.AuthenticatedSafe;
  await safe.makeInternalValues({ safeContents: [{}, encryption] });
  await pfx.makeInternalValues({ password: passwordBuffer, iterations: 2048, pbkdf2HashAlgorithm: 'SHA-256', hmacHashAlgorithm: 'SHA-256' });
  return new Uint8Array(pfx.toSchema().toBER(false));
}

async function closedPortUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
