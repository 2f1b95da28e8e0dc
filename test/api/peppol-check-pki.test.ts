/**
 * Discovery judged by the real Peppol PKI (PEPPOL_NETWORK=as4, no certificate double): the SMP's
 * signing certificate must chain to PEPPOL_SMP_TRUST, an AS4 endpoint's certificate must be a
 * Peppol Access Point certificate of PEPPOL_AP_TRUST. Fake SML (DNS) and SMP as in
 * peppol-check-smp.test.ts; the certificates come from the test PKI.
 */
import { expect } from 'chai';
import { loadConfig } from '../../src/platform/config.ts';
import { parseSmpParticipantId } from '../../src/modules/delivery/peppol/smp/participant-id.ts';
import { smlHostName } from '../../src/modules/delivery/peppol/smp/sml-name.ts';
import { smpNaptr, startFakeDns, type FakeDns } from '../network/smp/fake-dns.ts';
import { startFakeSmp, type FakeSmp } from '../network/smp/fake-smp.ts';
import { BILLING, INVOICE, groupPath, metadataPath, serviceGroup, signedServiceMetadata } from '../network/smp/smp-fixtures.ts';
import type { TestIdentity } from '../network/smp/test-pki.ts';
import { startTestPki, type TestCertificate, type TestPki } from '../support/peppol-pki.ts';
import { startTestService, type TestService } from '../support/service.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
const AP = 'https://ap.example.test/as4';

function identityOf(made: TestCertificate): TestIdentity {
  return { certificate: made.node, certificatePem: made.pem, privateKeyPem: made.keyPem, base64: Buffer.from(made.certificate.rawData).toString('base64') };
}

describe('POST /tools/peppol-check with discovery judged by the Peppol PKI (PEPPOL_NETWORK=as4)', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let svc: TestService;
  let dns: FakeDns;
  let smp: FakeSmp;
  let smpSigner: TestIdentity;
  let peerAp: TestIdentity;

  before(async () => {
    pki = await startTestPki();
    dns = await startFakeDns();
    smp = await startFakeSmp();
    smpSigner = identityOf(await pki.issue('smp'));
    peerAp = identityOf(await pki.issue('ap'));
    const defaults = loadConfig({});
    svc = await startTestService({
      peppol: loadConfig(pki.env(await pki.issue('ap', { cn: 'POP000999' }))).peppol,
      delivery: {
        participantDirectory: 'smp',
        smlZone: ZONE,
        discovery: { ...defaults.delivery.discovery, dnsServers: [dns.server], timeoutMs: 2_000, smpCacheMs: 0, allowLoopback: true },
      },
    });
  });
  after(async () => {
    await svc?.close();
    await dns?.close();
    await smp?.close();
    await pki?.close();
  });

  function register(participant: string, metadata: string): void {
    dns.records.set(smlHostName(parseSmpParticipantId(participant), ZONE), [smpNaptr(smp.url)]);
    smp.routes.set(groupPath(participant), { body: serviceGroup(smp.url, participant, [INVOICE]) });
    smp.routes.set(metadataPath(participant, INVOICE), { body: metadata });
  }
  const check = (participant: string) => svc.call('POST', '/tools/peppol-check', { participant_id: participant });

  it('an SMP certificate of the SMP CA and an Access Point certificate of the AP CA: the participant can receive', async () => {
    register('0088:5790000435981', signedServiceMetadata('0088:5790000435981', INVOICE, [{ process: BILLING, endpoints: [{ url: AP, certificate: peerAp.base64 }] }], smpSigner));
    const answer = await check('0088:5790000435981');
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.include({ registered: true, can_receive: true, can_receive_invoice: true, source: 'smp' });
  });

  it('metadata signed by an SMP certificate of another CA is not believed: 502, naming the participant', async () => {
    const foreignSmp = identityOf(await pki.issue('smp', { issuer: pki.other }));
    register('0088:5790000435982', signedServiceMetadata('0088:5790000435982', INVOICE, [{ process: BILLING, endpoints: [{ url: AP, certificate: peerAp.base64 }] }], foreignSmp));
    const answer = await check('0088:5790000435982');
    expect(answer.status).to.equal(502);
    expect(answer.body.detail).to.deep.include({ error: 'participant_lookup_failed' });
    expect(answer.body.detail.message).to.include('participant 0088:5790000435982').and.not.include(smp.url);
  });

  it('an endpoint whose certificate is not a Peppol Access Point certificate (another CA, an SMP\'s) cannot receive', async () => {
    for (const [participant, certificate] of [
      ['0088:5790000435983', identityOf(await pki.issue('ap', { issuer: pki.other }))],
      ['0088:5790000435984', smpSigner],
    ] as const) {
      register(participant, signedServiceMetadata(participant, INVOICE, [{ process: BILLING, endpoints: [{ url: AP, certificate: certificate.base64 }] }], smpSigner));
      const answer = await check(participant);
      expect(answer.status, participant).to.equal(200);
      expect(answer.body, participant).to.deep.include({ can_receive: false, can_receive_invoice: false });
    }
  });
});
