/**
 * Peppol AS4 requires TLS: an AS4 endpoint an SMP publishes must be an https URL, or sending and
 * POST /tools/peppol-check leave it out. Plain http only where tests allow loopback. The SMP
 * itself is asked over http, as the SML names it (its answers are signed). Here the guard admits
 * no loopback; the fake SMP on loopback is reached through the test's request function.
 */
import { expect } from 'chai';
import { PeppolRefusedError } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { parseSmpParticipantId } from '../../../src/modules/delivery/peppol/smp/participant-id.ts';
import { peppolDiscovery, type DiscoveryOptions } from '../../../src/modules/delivery/peppol/smp/index.ts';
import { smlHostName } from '../../../src/modules/delivery/peppol/smp/sml-name.ts';
import { guardedRequest } from '../../../src/platform/http-client/guarded-request.ts';
import { systemResolver } from '../../../src/platform/http-client/target-guard.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';
import { smpNaptr, startFakeDns, type FakeDns } from './fake-dns.ts';
import { startFakeSmp, type FakeSmp } from './fake-smp.ts';
import { BILLING, INVOICE, groupPath, metadataPath, serviceGroup, signedServiceMetadata } from './smp-fixtures.ts';
import { preparePki, trusting } from './test-pki.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
const PARTICIPANT = '0245:2020273893';
const QUERY = { participantId: PARTICIPANT, documentTypeId: INVOICE, processId: BILLING };

describeDatabaseFree('Peppol discovery: an SMP-published AS4 endpoint must be https', function () {
  this.timeout(20_000);
  before(preparePki);
  let dns: FakeDns;
  let smp: FakeSmp;

  beforeEach(async () => {
    dns = await startFakeDns();
    smp = await startFakeSmp();
  });
  afterEach(async () => {
    await dns.close();
    await smp.close();
  });

  const options = (allowLoopback: boolean): DiscoveryOptions => ({
    smlZone: ZONE,
    dnsServers: [dns.server],
    timeoutMs: 2_000,
    checkCertificate: trusting().check,
    guard: { allowLoopback, resolve: systemResolver },
    // only the fake SMP is let through to loopback; the rule under test reads the guard above
    request: (request) => guardedRequest({ ...request, guard: { ...request.guard, allowLoopback: true } }),
  });

  function publish(endpoints: string[]): void {
    dns.records.set(smlHostName(parseSmpParticipantId(PARTICIPANT), ZONE), [smpNaptr(smp.url)]);
    smp.routes.set(groupPath(PARTICIPANT), { body: serviceGroup(smp.url, PARTICIPANT, [INVOICE]) });
    smp.routes.set(metadataPath(PARTICIPANT, INVOICE), { body: signedServiceMetadata(PARTICIPANT, INVOICE, [{ process: BILLING, endpoints: endpoints.map((url) => ({ url })) }]) });
  }

  it('an http endpoint: refused at once (no retries), naming the participant', async () => {
    publish(['http://ap.example.test/as4']);
    const error = await peppolDiscovery(options(false)).endpointFor(QUERY).then(() => expect.fail('expected a refusal'), (e: unknown) => e);
    expect(error).to.be.instanceOf(PeppolRefusedError);
    expect((error as Error).message).to.include(PARTICIPANT).and.include('not https').and.not.include('ap.example.test');
  });

  it('beside an https one, the https one is chosen', async () => {
    publish(['http://plain.example.test/as4', 'https://ap.example.test/as4']);
    expect((await peppolDiscovery(options(false)).endpointFor(QUERY)).url).to.equal('https://ap.example.test/as4');
  });

  it('POST /tools/peppol-check leaves an http AS4 endpoint out, as sending would refuse it', async () => {
    publish(['http://ap.example.test/as4']);
    const found = await peppolDiscovery(options(false)).lookup(PARTICIPANT);
    expect(found.registered).to.equal(true);
    expect(found.can_receive_invoice).to.equal(false);
    expect(found.document_types.flatMap((d) => d.endpoint_urls)).to.deep.equal([]);
  });

  it('where tests allow loopback, plain http is taken (two instances on one machine)', async () => {
    publish(['http://127.0.0.1:1/as4']);
    expect((await peppolDiscovery(options(true)).endpointFor(QUERY)).url).to.equal('http://127.0.0.1:1/as4');
  });
});
