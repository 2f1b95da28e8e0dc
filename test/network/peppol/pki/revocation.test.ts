import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { RevocationMode } from '../../../../src/platform/config.ts';
import {
  boundedFetch, certificateCheck, loadTrustAnchors, revocationLookup, RevocationFetchError, type CertificateCheck, type RevocationFetch,
} from '../../../../src/modules/delivery/peppol/pki/index.ts';
import { BoundedCache } from '../../../../src/modules/delivery/peppol/pki/revocation/bounded-cache.ts';
import { startTestPki, type TestPki } from '../../../support/peppol-pki.ts';

describe('peppol pki: revocation (OCSP, CRL) under PEPPOL_REVOCATION off, soft and hard', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let warnings: Record<string, unknown>[];
  const loopbackFetch: RevocationFetch = boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: true });
  const checker = (revocation: RevocationMode, fetch: RevocationFetch = loopbackFetch): CertificateCheck => certificateCheck({
    trust: { ap: loadTrustAnchors('ap', pki.files.apTrust), smp: loadTrustAnchors('smp', pki.files.smpTrust) },
    revocation,
    lookup: revocationLookup({ fetch }),
    log: { warn: (fields) => void warnings.push(fields) },
  });
  before(async () => {
    pki = await startTestPki();
  });
  after(() => pki.close());
  beforeEach(() => {
    warnings = [];
    pki.responderMode = 'ok';
    pki.delegatedOcsp = false;
  });

  describe('OCSP (the certificate names a responder)', () => {
    it('a good certificate passes; its answer is verified against the issuer and cached until nextUpdate', async () => {
      const ap = await pki.issue('ap');
      const check = checker('hard');
      const before = pki.requests.ocsp;
      const crlBefore = pki.requests.crl;
      expect(await check(ap.node, 'ap', new Date())).to.deep.include({ ok: true });
      expect(await check(ap.node, 'ap', new Date())).to.deep.include({ ok: true });
      expect(pki.requests.ocsp - before).to.equal(1);
      expect(pki.requests.crl - crlBefore, 'OCSP answered: the CRL is not fetched').to.equal(0);
      // past the answer's nextUpdate (an hour): asked again
      expect(await check(ap.node, 'ap', new Date(Date.now() + 2 * 3_600_000))).to.deep.include({ ok: false, reason: 'revocation_unknown' });
      expect(pki.requests.ocsp - before).to.equal(2);
    });

    it('revoked: the responder says so (soft and hard alike)', async () => {
      const ap = await pki.issue('ap');
      pki.revoke(ap);
      for (const mode of ['soft', 'hard'] as const) {
        const verdict = await checker(mode)(ap.node, 'ap', new Date());
        expect(verdict).to.deep.include({ ok: false, reason: 'revoked' });
        expect((verdict as { message: string }).message).to.include('OCSP');
      }
    });

    it('believes a responder the issuer delegated to (its certificate in the answer, id-kp-OCSPSigning)', async () => {
      pki.delegatedOcsp = true;
      const good = await pki.issue('ap', { crl: null });
      const bad = await pki.issue('ap', { crl: null });
      pki.revoke(bad);
      expect(await checker('hard')(good.node, 'ap', new Date())).to.deep.include({ ok: true });
      expect(await checker('hard')(bad.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revoked' });
    });

    it('off: a revoked certificate passes and nobody is asked', async () => {
      const ap = await pki.issue('ap');
      pki.revoke(ap);
      const before = pki.requests.ocsp + pki.requests.crl;
      expect(await checker('off')(ap.node, 'ap', new Date())).to.deep.include({ ok: true });
      expect(pki.requests.ocsp + pki.requests.crl).to.equal(before);
    });

    it('an answer signed by someone else is not believed', async () => {
      // the responder answers for the other CA (signed with its key), while the certificate's issuer is the AP CA
      const ap = await pki.issue('ap', { ocsp: `${pki.responderUrl}/ocsp/other`, crl: null });
      pki.revoke(ap);
      expect(await checker('hard')(ap.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revocation_unknown' });
    });
  });

  describe('CRL (no responder named)', () => {
    it('good and revoked from the distribution point\'s CRL, verified against the issuer, fetched once', async () => {
      const good = await pki.issue('ap', { ocsp: null });
      const bad = await pki.issue('ap', { ocsp: null });
      pki.revoke(bad);
      const check = checker('hard');
      const before = pki.requests.crl;
      expect(await check(good.node, 'ap', new Date())).to.deep.include({ ok: true });
      const verdict = await check(bad.node, 'ap', new Date());
      expect(verdict).to.deep.include({ ok: false, reason: 'revoked' });
      expect((verdict as { message: string }).message).to.include('CRL');
      expect(pki.requests.crl - before).to.equal(1);
    });

    it('a CRL of another CA is not believed', async () => {
      const ap = await pki.issue('ap', { ocsp: null, crl: `${pki.responderUrl}/crl/other.crl` });
      expect(await checker('hard')(ap.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revocation_unknown' });
    });

    it('falls back to the CRL when the OCSP responder is unreachable', async () => {
      const ap = await pki.issue('ap', { ocsp: `${pki.deadUrl}/ocsp` });
      pki.revoke(ap);
      expect(await checker('hard')(ap.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revoked' });
    });
  });

  describe('an unreachable responder', () => {
    it('soft: allowed, and logged', async () => {
      const ap = await pki.issue('ap', { ocsp: `${pki.deadUrl}/ocsp`, crl: `${pki.deadUrl}/crl` });
      expect(await checker('soft')(ap.node, 'ap', new Date())).to.deep.include({ ok: true });
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.include({ purpose: 'ap' });
      expect(String(warnings[0]?.['why'])).to.include('unreachable').and.not.include('127.0.0.1');
    });

    it('hard: refused as revocation_unknown', async () => {
      const ap = await pki.issue('ap', { ocsp: `${pki.deadUrl}/ocsp`, crl: `${pki.deadUrl}/crl` });
      const verdict = await checker('hard')(ap.node, 'ap', new Date());
      expect(verdict).to.deep.include({ ok: false, reason: 'revocation_unknown' });
      expect((verdict as { message: string }).message).to.not.include(pki.deadUrl);
    });

    it('hard: a responder that answers an HTTP error is as good as unreachable; soft lets it through', async () => {
      const ap = await pki.issue('ap');
      pki.responderMode = 'error';
      expect(await checker('hard')(ap.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revocation_unknown' });
      expect(await checker('soft')(ap.node, 'ap', new Date())).to.deep.include({ ok: true });
    });

    it('a certificate that names no source passes in every mode', async () => {
      const ap = await pki.issue('ap', { ocsp: null, crl: null });
      expect(await checker('hard')(ap.node, 'ap', new Date())).to.deep.include({ ok: true });
    });

    it('loopback responders are refused unless allowed (the address a certificate names is a peer\'s choice)', async () => {
      const ap = await pki.issue('ap');
      const guarded = boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: false });
      const before = pki.requests.ocsp + pki.requests.crl;
      expect(await checker('hard', guarded)(ap.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revocation_unknown' });
      expect(pki.requests.ocsp + pki.requests.crl).to.equal(before);
    });
  });

  describe('the bounded fetch', () => {
    let server: http.Server;
    let base: string;
    before(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/redirect') res.writeHead(302, { location: 'http://10.0.0.1/crl' }).end();
        else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(4096));
        else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 1_000);
        else res.writeHead(200).end('fine');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const fetch = () => boundedFetch({ timeoutMs: 300, maxBytes: 1024, allowLoopback: true });
    const get = (url: string) => fetch()({ url, method: 'GET', accept: '*/*' });

    it('follows no redirect, cuts off a large answer and a slow one', async () => {
      expect(Buffer.from(await get(`${base}/ok`)).toString()).to.equal('fine');
      for (const [path, words] of [['/redirect', 'redirect, which is not followed'], ['/big', 'larger than allowed'], ['/slow', 'no answer in time']]) {
        const error = await get(`${base}${path}`).then(() => undefined, (e: unknown) => e);
        expect(error).to.be.instanceOf(RevocationFetchError);
        expect((error as Error).message).to.include(words);
      }
    });

    it('refuses private and link-local addresses, and names that resolve to them', async () => {
      const guarded = boundedFetch({ timeoutMs: 300, maxBytes: 1024, allowLoopback: true, resolve: async () => [{ address: '192.168.1.10', family: 4 }] });
      for (const url of ['http://10.1.2.3/crl', 'http://169.254.169.254/latest', 'http://[::ffff:10.0.0.1]/x', 'http://[fd00::1]/x']) {
        const error = await fetch()({ url, method: 'GET', accept: '*/*' }).then(() => undefined, (e: unknown) => e);
        expect((error as Error).message, url).to.match(/^refused: the host is a (private network|link-local) address$/);
      }
      const named = await guarded({ url: 'http://crl.example.test/x.crl', method: 'GET', accept: '*/*' }).then(() => undefined, (e: unknown) => e);
      expect((named as Error).message).to.equal('refused: the host resolves to a private network address');
    });
  });

  it('the cache holds at most its bound, the oldest leaving first', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1, 10_000);
    cache.set('b', 2, 10_000);
    cache.set('c', 3, 10_000);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0), cache.size]).to.deep.equal([undefined, 2, 3, 2]);
    expect(cache.get('b', 10_000)).to.equal(undefined);
  });
});
