import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadStaticEndpoints, parseStaticEndpoints } from '../../../src/modules/delivery/peppol/smp/static-endpoints.ts';
import { sameSubject } from '../../../src/modules/delivery/peppol/smp/subject-name.ts';
import { apIdentity, preparePki } from './test-pki.ts';

describe('static routing table (PEPPOL_STATIC_ENDPOINTS)', () => {
  before(preparePki);
  it('reads PEM text or a certificate file beside the JSON, keyed by the normalised participant id', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'static-endpoints-'));
    writeFileSync(path.join(dir, 'ap.pem'), apIdentity().certificatePem);
    const file = path.join(dir, 'routes.json');
    writeFileSync(file, JSON.stringify({
      '9950:SK2020273893SVCTEST': { url: 'http://127.0.0.1:8081/as4', certificate: 'ap.pem' },
      'iso6523-actorid-upis::0088:123': { url: 'https://ap.example.test/as4', certificate: apIdentity().certificatePem },
    }));
    const table = loadStaticEndpoints(file);
    expect([...table.keys()]).to.deep.equal(['9950:sk2020273893svctest', '0088:123']);
    expect(table.get('9950:sk2020273893svctest')?.certificate.fingerprint256).to.equal(apIdentity().certificate.fingerprint256);
    expect(table.get('0088:123')?.url).to.equal('https://ap.example.test/as4');
  });

  const PEM = 'the test AP certificate';
  for (const [json, why] of [
    [[], /JSON object/],
    [{ 'not-an-id': { url: 'https://a', certificate: PEM } }, /entry "not-an-id"/],
    [{ '0088:1': { url: 'ftp://a', certificate: PEM } }, /http or https URL/],
    [{ '0088:1': { url: 'https://a' } }, /PEM text or a file path/],
    [{ '0088:1': { url: 'https://a', certificate: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----' } }, /not a PEM X.509/],
    [{ '0088:1': { url: 'https://a', certificate: 'missing.pem' } }, /cannot be read/],
  ] as const) {
    it(`refuses at start-up: ${String(why)}`, () => {
      const withPem = JSON.parse(JSON.stringify(json).replaceAll(PEM, apIdentity().certificatePem.replaceAll('\n', '\\n'))) as unknown;
      expect(() => parseStaticEndpoints(withPem, 'PEPPOL_STATIC_ENDPOINTS (t)', tmpdir())).to.throw(why);
    });
  }
});

describe('Redirect CertificateUID against a certificate subject', () => {
  before(preparePki);
  it('compares RFC 2253 text with Node’s subject as sets of attributes', () => {
    expect(sameSubject('CN=POP000001,O=Test AP,C=SK', apIdentity().certificate.subject)).to.equal(true);
    expect(sameSubject('C=SK, O=Test AP, cn=POP000001', apIdentity().certificate.subject)).to.equal(true);
    expect(sameSubject('CN=POP000002,O=Test AP,C=SK', apIdentity().certificate.subject)).to.equal(false);
    expect(sameSubject('CN=POP000001,O=Test AP', apIdentity().certificate.subject)).to.equal(false);
    expect(sameSubject('', apIdentity().certificate.subject)).to.equal(false);
  });
});
