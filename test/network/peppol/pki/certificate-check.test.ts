import { X509Certificate } from 'node:crypto';
import * as x509 from '../../../../src/modules/delivery/peppol/pki/x509.ts';
import { expect } from 'chai';
import { ConfigRefused } from '../../../../src/platform/config.ts';
import { certificateCheck, distrustOf, loadTrustAnchors, trustAnchorsOf, type CertificateCheck, type RevocationLookup } from '../../../../src/modules/delivery/peppol/pki/index.ts';
import { pathToAnchor } from '../../../../src/modules/delivery/peppol/pki/certificate-path.ts';
import { startTestPki, type TestPki } from '../../../support/peppol-pki.ts';

const DAY = 86_400_000;
const unasked: RevocationLookup = async () => {
  throw new Error('revocation is asked only about a certificate that passed the rest');
};

describe('peppol pki: is a certificate a trusted Peppol Access Point (or SMP) certificate', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let check: CertificateCheck;
  const now = () => new Date();
  before(async () => {
    pki = await startTestPki();
    const trust = { ap: loadTrustAnchors('ap', pki.files.apTrust), smp: loadTrustAnchors('smp', pki.files.smpTrust) };
    check = certificateCheck({ trust, revocation: 'off', lookup: unasked, log: { warn: () => undefined } });
  });
  after(() => pki.close());

  it('trusts an Access Point certificate of the AP CA, and an SMP certificate of the SMP CA', async () => {
    const ap = await pki.issue('ap', { cn: 'POP000123' });
    expect(await check(ap.node, 'ap', now())).to.deep.include({ ok: true });
    const smp = await pki.issue('smp');
    expect(await check(smp.node, 'smp', now())).to.deep.include({ ok: true });
  });

  it('untrusted_issuer: a certificate from another CA', async () => {
    const foreign = await pki.issue('ap', { issuer: pki.other });
    expect(await check(foreign.node, 'ap', now())).to.deep.include({ ok: false, reason: 'untrusted_issuer' });
  });

  it('untrusted_issuer: an SMP certificate offered as an Access Point\'s, and the other way round', async () => {
    expect(await check((await pki.issue('smp')).node, 'ap', now())).to.deep.include({ ok: false, reason: 'untrusted_issuer' });
    expect(await check((await pki.issue('ap')).node, 'smp', now())).to.deep.include({ ok: false, reason: 'untrusted_issuer' });
  });

  it('untrusted_issuer: a certificate that names the AP CA but is signed by another key', async () => {
    // same issuer name, another CA's signature: only the signature check tells them apart
    const forged = await pki.issue('ap', { issuer: { ...pki.other, certificate: pki.apCa.certificate } });
    expect(await check(forged.node, 'ap', now())).to.deep.include({ ok: false, reason: 'untrusted_issuer' });
  });

  it('expired: a certificate past its notAfter, and at a time after it', async () => {
    const expired = await pki.issue('ap', { notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) });
    const verdict = await check(expired.node, 'ap', now());
    expect(verdict).to.deep.include({ ok: false, reason: 'expired' });
    const fine = await pki.issue('ap');
    expect(await check(fine.node, 'ap', new Date(Date.now() + 400 * DAY))).to.deep.include({ ok: false, reason: 'expired' });
  });

  it('not_yet_valid: a certificate before its notBefore', async () => {
    const early = await pki.issue('ap', { notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 400 * DAY) });
    expect(await check(early.node, 'ap', now())).to.deep.include({ ok: false, reason: 'not_yet_valid' });
  });

  it('expired: a CA on the path past its own validity', async () => {
    // the AP CA's validity ends before the root's: a time between them fails on the CA
    const ap = await pki.issue('ap', { notAfter: new Date(Date.now() + 4000 * DAY) });
    const verdict = await check(ap.node, 'ap', new Date(Date.now() + 3200 * DAY));
    expect(verdict).to.deep.include({ ok: false, reason: 'expired' });
    expect((verdict as { message: string }).message).to.include('PEPPOL ACCESS POINT TEST CA - G2');
  });

  it('not_access_point: a certificate the root issued directly, and a CA certificate', async () => {
    const byRoot = await pki.issue('ap', { issuer: pki.root });
    expect(await check(byRoot.node, 'ap', now())).to.deep.include({ ok: false, reason: 'not_access_point' });
    const ca = await pki.issue('ap', { ca: true });
    expect(await check(ca.node, 'ap', now())).to.deep.include({ ok: false, reason: 'not_access_point' });
  });

  it('not_a_ca: a path through a certificate that is not a CA (a bundle not loaded through the checks)', async () => {
    // keyCertSign without cA: OpenSSL's checkIssued lets it issue, only the CA flag refuses it
    const notCa = await pki.issue('ap', { keyUsage: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature });
    const below = await pki.issue('ap', { issuer: { ...pki.apCa, name: 'ap-ca', certificate: notCa.certificate, keys: notCa.keys } });
    const found = pathToAnchor(below.node, [notCa.node, new X509Certificate(pki.apCa.pem), new X509Certificate(pki.root.pem)]);
    expect(found).to.deep.include({ ok: false, reason: 'not_a_ca' });
  });

  it('answers the AS4 reader\'s trustSender: null when trusted, else the reason and its words', async () => {
    const trustSender = distrustOf(check, 'ap', now);
    expect(await trustSender((await pki.issue('ap')).node)).to.equal(null);
    expect(await trustSender((await pki.issue('ap', { issuer: pki.other })).node)).to.match(/^untrusted_issuer: /);
  });

  it('a trust bundle must hold CA certificates, and an issuing CA besides roots', async () => {
    const leaf = await pki.issue('ap');
    expect(() => trustAnchorsOf('ap', [leaf.node], 'test')).to.throw(ConfigRefused, 'is not a CA certificate');
    expect(() => trustAnchorsOf('ap', [new X509Certificate(pki.root.pem)], 'test')).to.throw(ConfigRefused, 'only root certificates');
    expect(() => loadTrustAnchors('ap', leaf.files.key)).to.throw(ConfigRefused, 'holds no PEM certificate');
  });
});
