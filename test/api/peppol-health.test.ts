import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ConfigRefused, loadConfig, type PeppolConfig } from '../../src/platform/config.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startTestPki, type TestPki } from '../support/peppol-pki.ts';
import { boundedFetch } from '../../src/modules/delivery/index.ts';

const DAY = 86_400_000;

async function health(svc: TestService): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${svc.api}/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('GET /api/v1/health: the Peppol network and our Access Point certificate (issue 38)', function () {
  this.timeout(120_000);
  let pki: TestPki;
  const as4 = (env: Record<string, string>): PeppolConfig => loadConfig(env).peppol;
  before(async () => {
    pki = await startTestPki();
  });
  after(() => pki.close());

  describe('the sandbox default', () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService();
    });
    after(() => svc?.close());

    it('says network sandbox and nothing more; the status is what it was', async () => {
      const { status, body } = await health(svc);
      expect(status).to.equal(200);
      expect(body['peppol']).to.deep.equal({ network: 'sandbox' });
      expect(body['status']).to.equal(body['validation'] === 'unavailable' ? 'degraded' : 'ok');
      expect(body).to.include({ database: svc.services.database });
    });
  });

  describe('PEPPOL_NETWORK=as4 with a test certificate', () => {
    let svc: TestService;
    before(async () => {
      const ap = await pki.issue('ap', { cn: 'POP000321', notAfter: new Date(Date.now() + 200 * DAY + 3_600_000) });
      svc = await startTestService({
        peppol: as4({ ...pki.env(ap), PEPPOL_REVOCATION: 'hard' }),
        peppolRevocationFetch: boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: true }),
      });
    });
    after(() => svc?.close());

    it('checks a peer\'s certificate with the configured trust and revocation', async () => {
      const check = svc.services.peppolPki?.check;
      if (!check) throw new Error('PEPPOL_NETWORK=as4 loads the PKI');
      const peer = await pki.issue('ap');
      expect(await check(peer.node, 'ap', new Date())).to.deep.include({ ok: true });
      const foreign = await pki.issue('ap', { issuer: pki.other });
      expect(await check(foreign.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'untrusted_issuer' });
      const revoked = await pki.issue('ap');
      pki.revoke(revoked);
      expect(await check(revoked.node, 'ap', new Date())).to.deep.include({ ok: false, reason: 'revoked' });
    });

    it('shows the certificate\'s subject and days to expiry; ok with 200 days left', async () => {
      const { status, body } = await health(svc);
      expect(status).to.equal(200);
      const peppol = body['peppol'] as { network: string; certificate: { subject: string; not_after: string; days_to_expiry: number } };
      expect(peppol.network).to.equal('as4');
      expect(peppol.certificate.subject).to.match(/^CN=POP000321, OU=PEPPOL TEST AP, O=.+, C=SK$/);
      expect(peppol.certificate.days_to_expiry).to.equal(200);
      expect(Date.parse(peppol.certificate.not_after)).to.be.greaterThan(Date.now());
      expect(body['status']).to.equal(body['validation'] === 'unavailable' ? 'degraded' : 'ok');
    });
  });

  describe('PEPPOL_NETWORK=as4 with a certificate about to expire', () => {
    let svc: TestService;
    before(async () => {
      const ap = await pki.issue('ap', { notAfter: new Date(Date.now() + 10 * DAY + 3_600_000) });
      const keyFile = pki.writeEncryptedKey(ap, 'pass phrase');
      svc = await startTestService({ peppol: as4({ ...pki.env(ap), AS4_KEY: keyFile, AS4_KEY_PASSPHRASE: 'pass phrase' }) });
    });
    after(() => svc?.close());

    it('is degraded under 30 days, and says how many remain', async () => {
      const { status, body } = await health(svc);
      expect(status).to.equal(200);
      expect(body['status']).to.equal('degraded');
      expect((body['peppol'] as { certificate: { days_to_expiry: number } }).certificate.days_to_expiry).to.equal(10);
    });
  });

  describe('a start the configuration refuses', () => {
    it('as4 with an unreadable key: the service does not open', async () => {
      const ap = await pki.issue('ap');
      const error = await startTestService({ peppol: as4({ ...pki.env(ap), AS4_KEY: path.join(pki.dir, 'missing.key') }) }).then(() => undefined, (e: unknown) => e);
      expect(error).to.be.instanceOf(ConfigRefused);
      expect((error as Error).message).to.include('AS4_KEY').and.include('missing.key');
    });

    it('npm start with PEPPOL_NETWORK=as4 and no certificate: one sentence, exit code 1', async () => {
      const root = path.resolve(import.meta.dirname, '../..');
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPPOL_NETWORK: 'as4', DATA_DIR: path.join(pki.dir, 'data') };
      const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env, timeout: 60_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(run.code).to.equal(1);
      expect(run.stderr.trim()).to.equal('PEPPOL_NETWORK=as4 needs the Access Point\'s certificate and key: set AS4_CERT and AS4_KEY (PEM files), or AS4_P12 and AS4_P12_PASSWORD');
    });
  });
});
