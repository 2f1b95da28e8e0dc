/**
 * The SMP directory end to end against local fakes: a DNS server answering NAPTR queries (UDP,
 * 127.0.0.1) and an SMP (HTTP, 127.0.0.1). Nothing leaves the machine.
 */
import { expect } from 'chai';
import { ParticipantLookupError, type ParticipantDirectory } from '../../../src/modules/delivery/peppol/participants.ts';
import { parseSmpParticipantId } from '../../../src/modules/delivery/peppol/smp/participant-id.ts';
import { peppolDiscovery, type DiscoveryOptions } from '../../../src/modules/delivery/peppol/smp/index.ts';
import { systemResolver } from '../../../src/platform/http-client/target-guard.ts';
import { smlHostName } from '../../../src/modules/delivery/peppol/smp/sml-name.ts';
import { smpNaptr, startFakeDns, type FakeDns } from './fake-dns.ts';
import { startFakeSmp, type FakeSmp } from './fake-smp.ts';
import { trusting, preparePki } from './test-pki.ts';
import { AS4, BILLING, CREDIT_NOTE, INVOICE, ORDER, groupPath, metadataPath, redirectMetadata, serviceGroup, signedServiceMetadata } from './smp-fixtures.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
const TIMEOUT_MS = 400;
const AP = 'https://ap.example.test/as4';

/** The fakes listen on loopback: the guard admits it here, as PEPPOL_DISCOVERY_ALLOW_LOOPBACK does for tests. */
const options = (overrides: Partial<DiscoveryOptions> = {}): DiscoveryOptions => ({
  smlZone: ZONE,
  timeoutMs: TIMEOUT_MS,
  checkCertificate: trusting().check,
  guard: { allowLoopback: true, resolve: systemResolver },
  ...overrides,
});

describe('SMP participant directory (fake SML DNS + fake SMP)', function () {
  before(preparePki);
  let dns: FakeDns;
  let smp: FakeSmp;
  let directory: ParticipantDirectory;

  beforeEach(async () => {
    dns = await startFakeDns();
    smp = await startFakeSmp();
    directory = peppolDiscovery(options({ dnsServers: [dns.server] }));
  });

  afterEach(async () => {
    await dns.close();
    await smp.close();
  });

  /** The SML points the participant at the fake SMP, which serves these document types. */
  function register(participant: string, services: Record<string, string>, smpUrl = smp.url): void {
    dns.records.set(smlHostName(parseSmpParticipantId(participant), ZONE), [smpNaptr(smpUrl)]);
    smp.routes.set(groupPath(participant), { body: serviceGroup(smp.url, participant, Object.keys(services)) });
    for (const [documentType, body] of Object.entries(services)) smp.routes.set(metadataPath(participant, documentType), { body });
  }

  const billing = (participant: string, documentType: string) =>
    signedServiceMetadata(participant, documentType, [{ process: BILLING, endpoints: [{ url: AP }] }]);

  async function lookupError(participant: string): Promise<ParticipantLookupError> {
    try {
      await directory.lookup(participant);
    } catch (error) {
      expect(error).to.be.instanceOf(ParticipantLookupError);
      return error as ParticipantLookupError;
    }
    return expect.fail('expected the lookup to fail');
  }

  it('finds a participant that receives invoices and credit notes, with endpoints', async () => {
    register('0245:2020273893', {
      [INVOICE]: billing('0245:2020273893', INVOICE),
      [CREDIT_NOTE]: billing('0245:2020273893', CREDIT_NOTE),
      [ORDER]: signedServiceMetadata('0245:2020273893', ORDER, [{ process: 'urn:fdc:peppol.eu:poacc:bis:ordering:3', endpoints: [{ url: AP }] }]),
    });

    const found = await directory.lookup('0245:2020273893');

    expect(found).to.deep.include({
      participant_id: '0245:2020273893',
      scheme: '0245',
      identifier: '2020273893',
      registered: true,
      can_receive: true,
      can_receive_invoice: true,
      can_receive_credit_note: true,
      source: 'smp',
      smp_url: smp.url,
    });
    expect(found.document_types).to.deep.equal([
      { document_type_id: INVOICE, name: 'Peppol BIS Billing 3.0 Invoice', process_ids: [BILLING], transport_profiles: [AS4], endpoint_urls: [AP] },
      { document_type_id: CREDIT_NOTE, name: 'Peppol BIS Billing 3.0 Credit Note', process_ids: [BILLING], transport_profiles: [AS4], endpoint_urls: [AP] },
      { document_type_id: ORDER, name: null, process_ids: ['urn:fdc:peppol.eu:poacc:bis:ordering:3'], transport_profiles: [AS4], endpoint_urls: [AP] },
    ]);
    expect(dns.queries).to.deep.equal([smlHostName(parseSmpParticipantId('0245:2020273893'), ZONE)]);
  });

  it('normalises the id it is given (case, scheme prefix) before hashing and asking the SMP', async () => {
    register('9950:sk2020273893svctest', { [INVOICE]: billing('9950:sk2020273893svctest', INVOICE) });
    const found = await directory.lookup('iso6523-actorid-upis::9950:SK2020273893SVCTEST');
    expect(found.participant_id).to.equal('9950:sk2020273893svctest');
    expect(found.can_receive_invoice).to.equal(true);
  });

  it('finds a participant that only receives invoices', async () => {
    register('0088:5790000435975', { [INVOICE]: billing('0088:5790000435975', INVOICE) });
    const found = await directory.lookup('0088:5790000435975');
    expect(found).to.deep.include({ registered: true, can_receive: true, can_receive_invoice: true, can_receive_credit_note: false });
    expect(found.document_types.map((d) => d.name)).to.deep.equal(['Peppol BIS Billing 3.0 Invoice']);
  });

  it('does not count an invoice type offered without the billing process, or only on expired endpoints', async () => {
    register('0088:111', {
      [INVOICE]: signedServiceMetadata('0088:111', INVOICE, [{ process: 'urn:other:process', endpoints: [{ url: AP }] }]),
      [CREDIT_NOTE]: signedServiceMetadata('0088:111', CREDIT_NOTE, [
        { process: BILLING, endpoints: [{ url: AP, expiration: '2020-01-01T00:00:00Z' }] },
      ]),
    });
    const found = await directory.lookup('0088:111');
    expect(found).to.deep.include({ registered: true, can_receive: false, can_receive_invoice: false, can_receive_credit_note: false });
    expect(found.document_types[1]).to.deep.include({ endpoint_urls: [], transport_profiles: [] });
  });

  it('answers not registered when the SML has no NAPTR record (NXDOMAIN), without asking any SMP', async () => {
    const found = await directory.lookup('0245:1111111111');
    expect(found).to.deep.include({ registered: false, can_receive: false, document_types: [], smp_url: null, source: 'smp' });
    expect(smp.requests).to.deep.equal([]);
  });

  it('answers not registered when the name exists without NAPTR data (NODATA)', async () => {
    dns.records.set(smlHostName(parseSmpParticipantId('0245:1212121212'), ZONE), []);
    expect(await directory.lookup('0245:1212121212')).to.deep.include({ registered: false, smp_url: null });
  });

  it('answers not registered when the name has NAPTR records but none for an SMP', async () => {
    dns.records.set(smlHostName(parseSmpParticipantId('0245:2222222222'), ZONE), [smpNaptr(smp.url, { services: 'Meta:CPPA' })]);
    expect(await directory.lookup('0245:2222222222')).to.deep.include({ registered: false, smp_url: null });
  });

  it('answers not registered when the SMP answers 404 for the ServiceGroup', async () => {
    dns.records.set(smlHostName(parseSmpParticipantId('0245:3333333333'), ZONE), [smpNaptr(`${smp.url}/`)]);
    const found = await directory.lookup('0245:3333333333');
    expect(found).to.deep.include({ registered: false, can_receive: false, smp_url: `${smp.url}/` });
    expect(smp.requests).to.deep.equal([groupPath('0245:3333333333')]);
  });

  it('skips a referenced ServiceMetadata the SMP no longer has (404)', async () => {
    register('0088:444', { [INVOICE]: billing('0088:444', INVOICE) });
    smp.routes.set(groupPath('0088:444'), { body: serviceGroup(smp.url, '0088:444', [INVOICE, CREDIT_NOTE]) });
    const found = await directory.lookup('0088:444');
    expect(found).to.deep.include({ can_receive_invoice: true, can_receive_credit_note: false });
    expect(found.document_types).to.have.length(1);
  });

  it('follows a Redirect to another SMP once', async () => {
    const other = await startFakeSmp();
    try {
      register('0088:555', { [INVOICE]: redirectMetadata(`${other.url}${metadataPath('0088:555', INVOICE)}`) });
      other.routes.set(metadataPath('0088:555', INVOICE), { body: billing('0088:555', INVOICE) });
      const found = await directory.lookup('0088:555');
      expect(found).to.deep.include({ can_receive_invoice: true, smp_url: smp.url });
      expect(other.requests).to.deep.equal([metadataPath('0088:555', INVOICE)]);
    } finally {
      await other.close();
    }
  });

  it('refuses to follow a second Redirect', async () => {
    register('0088:666', { [INVOICE]: redirectMetadata(`${smp.url}/second`) });
    smp.routes.set('/second', { body: redirectMetadata(`${smp.url}/third`) });
    const error = await lookupError('0088:666');
    expect(error.code).to.equal('participant_lookup_failed');
    expect(error.message).to.match(/redirects twice/);
    expect(smp.requests).to.not.include('/third');
  });

  it('fails when the SMP does not answer in time', async () => {
    register('0088:777', {});
    smp.routes.set(groupPath('0088:777'), { body: serviceGroup(smp.url, '0088:777', []), delayMs: 5000 });
    const started = Date.now();
    const error = await lookupError('0088:777');
    expect(error.code).to.equal('participant_lookup_failed');
    expect(error.message).to.equal('the SMP of participant 0088:777 did not answer in time');
    expect(Date.now() - started).to.be.below(2000);
  });

  it('fails when the SMP answers 500 or something that is not XML, naming the participant but not the URL or status', async () => {
    register('0088:888', {});
    smp.routes.set(groupPath('0088:888'), { status: 500, body: 'oops' });
    const error = await lookupError('0088:888');
    expect(error.message).to.equal('the SMP of participant 0088:888 answered with an error');
    smp.routes.set(groupPath('0088:888'), { body: '{"not":"xml"}', contentType: 'application/json' });
    expect((await lookupError('0088:888')).message).to.match(/not well-formed XML/);
  });

  it('refuses hostile XML from the SMP (DOCTYPE with entities)', async () => {
    register('0088:999', {});
    smp.routes.set(groupPath('0088:999'), {
      body: `<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/">&b;</ServiceGroup>`,
    });
    const error = await lookupError('0088:999');
    expect(error.code).to.equal('participant_lookup_failed');
    expect(error.message).to.match(/DOCTYPE/);
  });

  it('fails when the SMP describes another participant', async () => {
    register('0088:1000', {});
    smp.routes.set(groupPath('0088:1000'), { body: serviceGroup(smp.url, '0088:2000', []) });
    expect((await lookupError('0088:1000')).message).to.match(/describes participant iso6523-actorid-upis::0088:2000/);
  });

  it('fails when the DNS server answers SERVFAIL', async () => {
    dns.mode = 'servfail';
    const error = await lookupError('0245:2020273893');
    expect(error.code).to.equal('participant_lookup_failed');
    expect(error.message).to.match(/SML DNS lookup/);
  });

  it('fails within the timeout when the DNS server does not answer', async () => {
    dns.mode = 'silent';
    const started = Date.now();
    const error = await lookupError('0245:2020273893');
    expect(error.code).to.equal('participant_lookup_failed');
    expect(error.message).to.match(/timed out/);
    expect(Date.now() - started).to.be.below(2000);
  });

  it('fails when no DNS server is listening', async () => {
    const gone = dns.server;
    await dns.close();
    dns = await startFakeDns(); // so afterEach has one to close
    directory = peppolDiscovery(options({ dnsServers: [gone] }));
    expect((await lookupError('0245:2020273893')).code).to.equal('participant_lookup_failed');
  });

  it('fails when the SML record cannot be turned into an SMP URL', async () => {
    dns.records.set(smlHostName(parseSmpParticipantId('0245:2020273893'), ZONE), [smpNaptr('x', { regexp: '!^(.*)$!http://\\1!' })]);
    expect((await lookupError('0245:2020273893')).message).to.match(/unusable/);
  });

  it('asks the SMP the SML named, each identifier percent-encoded whole (SMP 1.x)', async () => {
    register('0088:1300', { [INVOICE]: billing('0088:1300', INVOICE) });
    expect((await directory.lookup('0088:1300')).can_receive_invoice).to.equal(true);
    expect(smp.requests).to.deep.equal([
      '/iso6523-actorid-upis%3A%3A0088%3A1300',
      `/iso6523-actorid-upis%3A%3A0088%3A1300/services/busdox-docid-qns%3A%3A${encodeURIComponent(INVOICE)}`,
    ]);
    expect(smp.requests[1]).to.include('%23%23urn%3Acen.eu%3Aen16931%3A2017%23compliant%23');
  });

  it('refuses a bad configuration when it is built, not at the first lookup', () => {
    expect(() => peppolDiscovery(options({ smlZone: 'not a zone' }))).to.throw(/not a DNS name/);
    expect(() => peppolDiscovery(options({ dnsServers: ['not-an-ip'] }))).to.throw();
  });

  it('refuses a malformed participant id before any query', async () => {
    for (const bad of ['2020273893', 'sk:2020273893', '0245:']) {
      expect((await lookupError(bad)).code).to.equal('invalid_participant_id');
    }
    expect(dns.queries).to.deep.equal([]);
  });
});
