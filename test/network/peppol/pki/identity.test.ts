import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigRefused } from '../../../../src/platform/config.ts';
import { loadApIdentity } from '../../../../src/modules/delivery/peppol/pki/index.ts';
import { startTestPki, type TestCertificate, type TestPki } from '../../../support/peppol-pki.ts';

async function refusal(promise: Promise<unknown>): Promise<ConfigRefused> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, 'expected a start-up refusal').to.be.instanceOf(ConfigRefused);
  return error as ConfigRefused;
}

describe('peppol pki: our Access Point identity', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let ap: TestCertificate;
  before(async () => {
    pki = await startTestPki();
    ap = await pki.issue('ap', { cn: 'POP000777' });
  });
  after(() => pki.close());

  it('loads AS4_CERT and AS4_KEY (PEM): the certificate, its subject and CN, and the key that belongs to it', async () => {
    const identity = await loadApIdentity({ kind: 'pem', certFile: ap.files.cert, keyFile: ap.files.key, keyPassphrase: undefined });
    expect(identity.certificate.raw.equals(ap.node.raw)).to.equal(true);
    expect(identity.certificateDer.equals(ap.node.raw)).to.equal(true);
    expect(identity.certificatePem).to.include('BEGIN CERTIFICATE');
    expect(identity.commonName).to.equal('POP000777');
    expect(identity.subject).to.match(/^CN=POP000777, OU=PEPPOL TEST AP, O=.+, C=SK$/);
    expect(identity.privateKey.type).to.equal('private');
    expect(identity.chain).to.deep.equal([]);
  });

  it('takes the CA certificates that follow it in AS4_CERT as its chain', async () => {
    const file = path.join(pki.dir, 'with-chain.pem');
    writeFileSync(file, ap.pem + pki.apCa.pem);
    const identity = await loadApIdentity({ kind: 'pem', certFile: file, keyFile: ap.files.key, keyPassphrase: undefined });
    expect(identity.certificate.raw.equals(ap.node.raw)).to.equal(true);
    expect(identity.chain).to.have.length(1);
  });

  it('decrypts an encrypted PKCS#8 key with AS4_KEY_PASSPHRASE', async () => {
    const keyFile = pki.writeEncryptedKey(ap, 'correct horse');
    const identity = await loadApIdentity({ kind: 'pem', certFile: ap.files.cert, keyFile, keyPassphrase: 'correct horse' });
    expect(identity.certificate.checkPrivateKey(identity.privateKey)).to.equal(true);
  });

  it('refuses an encrypted key without a passphrase, and with a wrong one, never echoing it', async () => {
    const keyFile = pki.writeEncryptedKey(ap, 'correct horse');
    expect((await refusal(loadApIdentity({ kind: 'pem', certFile: ap.files.cert, keyFile, keyPassphrase: undefined }))).message).to.include('set AS4_KEY_PASSPHRASE');
    const wrong = await refusal(loadApIdentity({ kind: 'pem', certFile: ap.files.cert, keyFile, keyPassphrase: 'battery staple' }));
    expect(wrong.message).to.include('cannot be read with AS4_KEY_PASSPHRASE').and.not.include('battery staple');
  });

  it('refuses a key that is not the certificate\'s, and files that are missing or not PEM', async () => {
    const other = await pki.issue('ap');
    expect((await refusal(loadApIdentity({ kind: 'pem', certFile: ap.files.cert, keyFile: other.files.key, keyPassphrase: undefined }))).message).to.include('does not belong to the certificate');
    expect((await refusal(loadApIdentity({ kind: 'pem', certFile: path.join(pki.dir, 'nope.pem'), keyFile: ap.files.key, keyPassphrase: undefined }))).message).to.include('AS4_CERT').and.include('ENOENT');
    expect((await refusal(loadApIdentity({ kind: 'pem', certFile: ap.files.key, keyFile: ap.files.key, keyPassphrase: undefined }))).message).to.include('holds no PEM certificate');
    expect((await refusal(loadApIdentity({ kind: 'pem', certFile: ap.files.cert, keyFile: ap.files.cert, keyPassphrase: undefined }))).message).to.include('is not a PEM private key');
  });

  it('loads AS4_P12 with AS4_P12_PASSWORD (PKCS#12: key, certificate and its CA)', async () => {
    const file = await pki.writeP12(ap, 'p12 secret');
    const identity = await loadApIdentity({ kind: 'p12', file, password: 'p12 secret' });
    expect(identity.certificate.raw.equals(ap.node.raw)).to.equal(true);
    expect(identity.certificate.checkPrivateKey(identity.privateKey)).to.equal(true);
    expect(identity.chain.map((c) => c.raw.equals(Buffer.from(pki.apCa.certificate.rawData)))).to.deep.equal([true]);
  });

  it('refuses a PKCS#12 with a wrong password, and a file that is not PKCS#12, never echoing the password', async () => {
    const file = await pki.writeP12(ap, 'p12 secret');
    const wrong = await refusal(loadApIdentity({ kind: 'p12', file, password: 'guess' }));
    expect(wrong.message).to.include('cannot be opened with AS4_P12_PASSWORD').and.not.include('guess');
    expect((await refusal(loadApIdentity({ kind: 'p12', file: ap.files.cert, password: 'x' }))).message).to.include('is not a PKCS#12 file');
  });

  it('reads a PKCS#12 that OpenSSL wrote (when openssl is installed)', async function () {
    if (!existsSync('/usr/bin/openssl')) this.skip();
    const file = path.join(pki.dir, 'openssl.p12');
    execFileSync('openssl', ['pkcs12', '-export', '-in', ap.files.cert, '-inkey', ap.files.key, '-certfile', pki.files.apTrust, '-out', file, '-passout', 'pass:from openssl']);
    const identity = await loadApIdentity({ kind: 'p12', file, password: 'from openssl' });
    expect(identity.certificate.raw.equals(ap.node.raw)).to.equal(true);
    expect(identity.chain).to.have.length(2);
  });

  it('says what to do with a legacy PKCS#12 (3DES PBE, as OpenSSL 1.x wrote) it cannot decrypt', async function () {
    if (!existsSync('/usr/bin/openssl')) this.skip();
    const file = path.join(pki.dir, 'legacy.p12');
    execFileSync('openssl', ['pkcs12', '-export', '-in', ap.files.cert, '-inkey', ap.files.key, '-out', file, '-passout', 'pass:old', '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']);
    expect((await refusal(loadApIdentity({ kind: 'p12', file, password: 'old' }))).message).to.include('export it again with AES');
    expect((await refusal(loadApIdentity({ kind: 'p12', file, password: 'wrong' }))).message).to.include('cannot be opened with AS4_P12_PASSWORD');
  });
});
