/**
 * POST /tools/peppol-check answered from Peppol discovery (PEPPOL_DIRECTORY=smp) over real HTTP: a
 * fake SML (DNS responder) and a fixture SMP serving metadata signed in the test. The SMP's
 * signature is verified; an answer whose signature fails is a 502 that names the participant, not
 * the SMP's URL.
 */
import { expect } from 'chai';
import { parseSmpParticipantId } from '../../src/modules/delivery/peppol/smp/participant-id.ts';
import { smlHostName } from '../../src/modules/delivery/peppol/smp/sml-name.ts';
import { smpNaptr, startFakeDns, type FakeDns } from '../network/smp/fake-dns.ts';
import { startFakeSmp, type FakeSmp } from '../network/smp/fake-smp.ts';
import { BILLING, INVOICE, groupPath, metadataPath, serviceGroup, signedServiceMetadata } from '../network/smp/smp-fixtures.ts';
import { trusting, preparePki } from '../network/smp/test-pki.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { loadConfig } from '../../src/platform/config.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
const AP = 'https://ap.example.test/as4';

describe('POST /tools/peppol-check from the SML and a signed SMP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let dns: FakeDns;
  let smp: FakeSmp;

  before(async () => {
    await preparePki();
    dns = await startFakeDns();
    smp = await startFakeSmp();
    const defaults = loadConfig({});
    svc = await startTestService({
      delivery: {
        participantDirectory: 'smp',
        smlZone: ZONE,
        discovery: { ...defaults.delivery.discovery, dnsServers: [dns.server], timeoutMs: 2_000, smpCacheMs: 0, allowLoopback: true },
      },
      checkCertificate: trusting().check,
    });
  });
  after(async () => {
    await svc?.close();
    await dns?.close();
    await smp?.close();
  });

  function register(participant: string, metadata: string): void {
    dns.records.set(smlHostName(parseSmpParticipantId(participant), ZONE), [smpNaptr(smp.url)]);
    smp.routes.set(groupPath(participant), { body: serviceGroup(smp.url, participant, [INVOICE]) });
    smp.routes.set(metadataPath(participant, INVOICE), { body: metadata });
  }

  it('answers from the signed metadata of the participant’s SMP', async () => {
    register('0088:5790000435975', signedServiceMetadata('0088:5790000435975', INVOICE, [{ process: BILLING, endpoints: [{ url: AP }] }]));
    const answer = await svc.call('POST', '/tools/peppol-check', { participant_id: '0088:5790000435975' });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.include({ registered: true, can_receive: true, can_receive_invoice: true, source: 'smp', smp_url: smp.url });
    expect(answer.body.document_types[0]).to.deep.include({ document_type_id: INVOICE, endpoint_urls: [AP] });
  });

  it('refuses metadata changed after the SMP signed it: 502, naming the participant and not the SMP', async () => {
    const signed = signedServiceMetadata('0088:5790000435976', INVOICE, [{ process: BILLING, endpoints: [{ url: AP }] }]);
    register('0088:5790000435976', signed.replace(AP, 'https://attacker.example.test/as4'));
    const answer = await svc.call('POST', '/tools/peppol-check', { participant_id: '0088:5790000435976' });
    expect(answer.status).to.equal(502);
    const detail = answer.body.detail as { error: string; message: string };
    expect(detail.error).to.equal('participant_lookup_failed');
    expect(detail.message).to.include('participant 0088:5790000435976');
    expect(detail.message).to.not.include(smp.url);
  });

  it('answers not registered for a participant the SML does not know', async () => {
    const answer = await svc.call('POST', '/tools/peppol-check', { participant_id: '0088:1111111111' });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.include({ registered: false, can_receive: false, smp_url: null });
  });
});
