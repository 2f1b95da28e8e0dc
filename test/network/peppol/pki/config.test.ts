import path from 'node:path';
import { expect } from 'chai';
import { ConfigRefused, loadConfig } from '../../../../src/platform/config.ts';

const RECEIVING = { maxBodyBytes: 64 * 1024 * 1024, bodyTimeoutMs: 60_000 };
const AS4_PEM = { PEPPOL_NETWORK: 'as4', AS4_CERT: 'ap.pem', AS4_KEY: 'ap.key', PEPPOL_AP_TRUST: 'ap-trust.pem', PEPPOL_SMP_TRUST: 'smp-trust.pem' };

describe('config: PEPPOL_NETWORK and the Access Point\'s identity and trust', () => {
  it('sandbox by default: nothing required, nothing read, revocation soft', () => {
    expect(loadConfig({}).peppol).to.deep.equal({ network: 'sandbox', identity: null, stage: 'test', apTrustFile: undefined, smpTrustFile: undefined, revocation: 'soft', receiving: RECEIVING });
    // what is set for a later switch to as4 changes nothing in the sandbox
    expect(loadConfig({ AS4_CERT: 'x.pem' }).peppol.identity).to.equal(null);
  });

  it('as4 with a PEM pair: the paths resolved, the passphrase kept', () => {
    const peppol = loadConfig({ ...AS4_PEM, AS4_KEY_PASSPHRASE: 'pw', PEPPOL_REVOCATION: 'hard' }).peppol;
    expect(peppol).to.deep.equal({
      network: 'as4', revocation: 'hard', stage: 'test',
      identity: { kind: 'pem', certFile: path.resolve('ap.pem'), keyFile: path.resolve('ap.key'), keyPassphrase: 'pw' },
      apTrustFile: path.resolve('ap-trust.pem'), smpTrustFile: path.resolve('smp-trust.pem'), receiving: RECEIVING,
    });
  });

  it('POST /tools/peppol-check asks Peppol discovery under as4, the sandbox directory otherwise; PEPPOL_DIRECTORY decides when set', () => {
    expect(loadConfig({}).delivery.participantDirectory).to.equal('sandbox');
    expect(loadConfig(AS4_PEM).delivery.participantDirectory).to.equal('smp');
    expect(loadConfig({ PEPPOL_DIRECTORY: 'smp' }).delivery.participantDirectory).to.equal('smp');
    expect(loadConfig({ ...AS4_PEM, PEPPOL_DIRECTORY: 'sandbox' }).delivery.participantDirectory).to.equal('sandbox');
    expect(() => loadConfig({ PEPPOL_DIRECTORY: 'dns' })).to.throw(ConfigRefused, /PEPPOL_DIRECTORY must be one of sandbox, smp/);
  });

  it('under as4 the server waits for a whole request longer than AS4_BODY_TIMEOUT_MS, so the AS4 door answers a slow sender', () => {
    expect(loadConfig({}).http.requestTimeoutMs).to.equal(30_000);
    expect(loadConfig(AS4_PEM).http.requestTimeoutMs).to.equal(65_000);
    expect(loadConfig({ ...AS4_PEM, AS4_BODY_TIMEOUT_MS: '10000' }).http.requestTimeoutMs).to.equal(30_000);
    expect(loadConfig({ ...AS4_PEM, HTTP_REQUEST_TIMEOUT_MS: '120000' }).http.requestTimeoutMs).to.equal(120_000);
    expect(() => loadConfig({ ...AS4_PEM, HTTP_REQUEST_TIMEOUT_MS: '30000' })).to.throw(ConfigRefused, /HTTP_REQUEST_TIMEOUT_MS \(30000\) must be at least AS4_BODY_TIMEOUT_MS \+ 5000 \(65000\)/);
  });

  it('POST /as4 bounds: AS4_MAX_BODY_BYTES and AS4_BODY_TIMEOUT_MS', () => {
    expect(loadConfig({ AS4_MAX_BODY_BYTES: '1000', AS4_BODY_TIMEOUT_MS: '500' }).peppol.receiving).to.deep.equal({ maxBodyBytes: 1000, bodyTimeoutMs: 500 });
  });

  it('as4 without PEPPOL_AP_TRUST or PEPPOL_SMP_TRUST: the shipped Peppol CAs of PEPPOL_STAGE (pki/anchors)', () => {
    const { PEPPOL_AP_TRUST: _a, ...rest } = AS4_PEM;
    expect(loadConfig(rest).peppol).to.include({ stage: 'test', apTrustFile: undefined, smpTrustFile: path.resolve('smp-trust.pem') });
    expect(loadConfig({ ...rest, PEPPOL_STAGE: 'Production' }).peppol.stage).to.equal('production');
  });

  it('as4 with PKCS#12 (an empty password is a password)', () => {
    const { AS4_CERT: _c, AS4_KEY: _k, ...rest } = AS4_PEM;
    expect(loadConfig({ ...rest, AS4_P12: 'ap.p12', AS4_P12_PASSWORD: '' }).peppol.identity).to.deep.equal({ kind: 'p12', file: path.resolve('ap.p12'), password: '' });
  });

  const refusals: [string, NodeJS.ProcessEnv, string][] = [
    ['an unknown network', { PEPPOL_NETWORK: 'peppol' }, 'PEPPOL_NETWORK must be one of sandbox, as4'],
    ['an unknown revocation mode', { PEPPOL_REVOCATION: 'strict' }, 'PEPPOL_REVOCATION must be one of off, soft, hard'],
    ['as4 without any identity', { PEPPOL_NETWORK: 'as4', PEPPOL_AP_TRUST: 'a', PEPPOL_SMP_TRUST: 's' }, 'set AS4_CERT and AS4_KEY (PEM files), or AS4_P12 and AS4_P12_PASSWORD'],
    ['as4 with a certificate and no key', { ...AS4_PEM, AS4_KEY: '' }, 'set AS4_KEY'],
    ['as4 with a key and no certificate', { ...AS4_PEM, AS4_CERT: '' }, 'set AS4_CERT'],
    ['as4 with both forms', { ...AS4_PEM, AS4_P12: 'ap.p12', AS4_P12_PASSWORD: 'x' }, 'not both'],
    ['as4 with a PKCS#12 and no password', { PEPPOL_NETWORK: 'as4', AS4_P12: 'ap.p12', PEPPOL_AP_TRUST: 'a', PEPPOL_SMP_TRUST: 's' }, 'AS4_P12_PASSWORD is not'],
    ['as4 on an unknown stage', { ...AS4_PEM, PEPPOL_STAGE: 'acceptance' }, 'PEPPOL_STAGE must be one of test, production'],
  ];
  for (const [what, env, words] of refusals) {
    it(`refuses to start: ${what}`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigRefused, words);
    });
  }

  it('never puts a passphrase in a refusal', () => {
    expect(() => loadConfig({ ...AS4_PEM, AS4_KEY_PASSPHRASE: 'hunter2', AS4_KEY: '' })).to.throw(ConfigRefused).that.satisfies((e: Error) => !e.message.includes('hunter2'));
  });
});
