/**
 * Discovery for sending: the static table, the SML (a fake DNS responder) and a fixture SMP serving
 * metadata signed in the test. Each refusal here fails without its check.
 */
import { expect } from 'chai';
import { PeppolRefusedError, PeppolTransportError } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { parseSmpParticipantId } from '../../../src/modules/delivery/peppol/smp/participant-id.ts';
import { peppolDiscovery, type DiscoveryOptions, type PeppolDiscovery } from '../../../src/modules/delivery/peppol/smp/index.ts';
import { smlHostName } from '../../../src/modules/delivery/peppol/smp/sml-name.ts';
import { parseStaticEndpoints } from '../../../src/modules/delivery/peppol/smp/static-endpoints.ts';
import type { ResolvedAddress } from '../../../src/platform/http-client/target-guard.ts';
import { systemResolver } from '../../../src/platform/http-client/target-guard.ts';
import { smpNaptr, startFakeDns, type FakeDns } from './fake-dns.ts';
import { startFakeSmp, type FakeSmp } from './fake-smp.ts';
import { AS4, BILLING, INVOICE, metadataPath, type FixtureProcess, redirectMetadata, serviceMetadata, signedServiceMetadata } from './smp-fixtures.ts';
import { apIdentity, smpIdentity, makeIdentity, signSmp, trusting, preparePki } from './test-pki.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
const TIMEOUT_MS = 400;
const AP = 'https://ap.example.test/as4';
const PARTICIPANT = '0245:2020273893';
const QUERY = { participantId: PARTICIPANT, documentTypeId: INVOICE, processId: BILLING };

describe('Peppol discovery for sending (static table, fake SML, signed fixture SMP)', function () {
  this.timeout(20_000);
  before(preparePki);
  let dns: FakeDns;
  let smp: FakeSmp;
  let now: number;
  const clock = { now: () => new Date(now) };

  const options = (overrides: Partial<DiscoveryOptions> = {}): DiscoveryOptions => ({
    smlZone: ZONE,
    dnsServers: [dns.server],
    timeoutMs: TIMEOUT_MS,
    checkCertificate: trusting().check,
    guard: { allowLoopback: true, resolve: systemResolver },
    clock,
    ...overrides,
  });

  beforeEach(async () => {
    now = Date.now();
    dns = await startFakeDns();
    smp = await startFakeSmp();
  });
  afterEach(async () => {
    await dns.close();
    await smp.close();
  });

  /** The SML names `smpUrl` for the participant; the SMP serves `body` for its invoice metadata. */
  function publish(body: string, smpUrl = smp.url, participant = PARTICIPANT): void {
    dns.records.set(smlHostName(parseSmpParticipantId(participant), ZONE), [smpNaptr(smpUrl)]);
    smp.routes.set(metadataPath(participant, INVOICE), { body });
  }
  const billing = (endpoints: FixtureProcess['endpoints'] = [{ url: AP }]) => signedServiceMetadata(PARTICIPANT, INVOICE, [{ process: BILLING, endpoints }]);

  async function failure(discovery: PeppolDiscovery, query = QUERY): Promise<Error> {
    try {
      await discovery.endpointFor(query);
    } catch (error) {
      expect(error).to.be.instanceOf(Error);
      return error as Error;
    }
    return expect.fail('expected discovery to fail');
  }
  /** A failure to retry later: it names the participant, never the SMP's URL or a status. */
  async function transportFailure(discovery: PeppolDiscovery, why: RegExp): Promise<void> {
    const error = await failure(discovery);
    expect(error).to.be.instanceOf(PeppolTransportError);
    expect(error.message).to.include(PARTICIPANT).and.match(why);
    expect(error.message).to.not.include(smp.url).and.not.include('127.0.0.1');
  }

  it('finds the AS4 endpoint: the URL and the certificate of the signed ServiceMetadata', async () => {
    publish(billing());
    const found = await peppolDiscovery(options()).endpointFor(QUERY);
    expect(found).to.deep.include({ participant_id: PARTICIPANT, url: AP, transport_profile: AS4, source: 'smp', guarded: true });
    expect(found.certificate.fingerprint256).to.equal(apIdentity().certificate.fingerprint256);
    expect(smp.requests).to.deep.equal([metadataPath(PARTICIPANT, INVOICE)]);
  });

  it('picks the endpoint with the AS4 v2 profile for the process asked, in service now', async () => {
    publish(signedServiceMetadata(PARTICIPANT, INVOICE, [
      { process: 'urn:other:process', endpoints: [{ url: 'https://other-process.example.test' }] },
      { process: BILLING, endpoints: [
        { url: 'https://old-profile.example.test', profile: 'busdox-transport-as2-ver1p0' },
        { url: 'https://expired.example.test', expiration: '2020-01-01T00:00:00Z' },
        { url: AP },
      ] },
    ]));
    expect((await peppolDiscovery(options()).endpointFor(QUERY)).url).to.equal(AP);
  });

  it('refuses metadata whose content was changed after the SMP signed it', async () => {
    publish(billing().replace(AP, 'https://attacker.example.test/as4'));
    await transportFailure(peppolDiscovery(options()), /signature|digest/);
  });

  it('refuses unsigned metadata', async () => {
    publish(serviceMetadata(PARTICIPANT, INVOICE, [{ process: BILLING, endpoints: [{ url: AP }] }]));
    await transportFailure(peppolDiscovery(options()), /not signed/);
  });

  it('refuses a wrapped signature: a signed fragment elsewhere, another ServiceMetadata as the document', async () => {
    const good = serviceMetadata(PARTICIPANT, INVOICE, [{ process: BILLING, endpoints: [{ url: AP }] }]);
    const evil = serviceMetadata(PARTICIPANT, INVOICE, [{ process: BILLING, endpoints: [{ url: 'https://attacker.example.test/as4' }] }]);
    // the genuine ServiceMetadata, given an Id and tucked into an extension; the attacker's one where a reader looks
    const tucked = /<ServiceMetadata>[\s\S]*<\/ServiceMetadata>/.exec(good)![0].replace('<ServiceMetadata>', '<ServiceMetadata Id="genuine">');
    const wrapped = evil.replace('</ServiceMetadata>\n</SignedServiceMetadata>', `</ServiceMetadata><Extension>${tucked}</Extension>\n</SignedServiceMetadata>`);
    publish(signSmp(wrapped, smpIdentity(), { uri: '#genuine', xpath: "//*[@Id='genuine']" }));
    await transportFailure(peppolDiscovery(options()), /does not cover the whole document/);
  });

  it('refuses metadata signed by a certificate the PKI does not take as an SMP certificate', async () => {
    const stranger = await makeIdentity('CN=SMP stranger,O=Elsewhere,C=SK');
    publish(signedServiceMetadata(PARTICIPANT, INVOICE, [{ process: BILLING, endpoints: [{ url: AP }] }], stranger));
    await transportFailure(peppolDiscovery(options()), /not a Peppol SMP certificate/);
  });

  it('refuses an endpoint whose certificate is not a Peppol Access Point certificate, at once', async () => {
    const stranger = await makeIdentity('CN=POP999999,O=Elsewhere,C=SK');
    publish(billing([{ url: AP, certificate: stranger.base64 }]));
    const error = await failure(peppolDiscovery(options()));
    expect(error).to.be.instanceOf(PeppolRefusedError);
    expect(error.message).to.include(PARTICIPANT).and.match(/not a Peppol Access Point certificate/);
  });

  it('refuses a participant the SML does not know at once, asking no SMP', async () => {
    const started = Date.now();
    const error = await failure(peppolDiscovery(options()));
    expect(error).to.be.instanceOf(PeppolRefusedError);
    expect(error.message).to.equal(`participant ${PARTICIPANT} is not registered in the Peppol network (the SML does not know it)`);
    expect(smp.requests).to.deep.equal([]);
    expect(Date.now() - started).to.be.below(TIMEOUT_MS);
  });

  it('refuses at once a document type or a process the participant does not receive', async () => {
    dns.records.set(smlHostName(parseSmpParticipantId(PARTICIPANT), ZONE), [smpNaptr(smp.url)]);
    const discovery = peppolDiscovery(options());
    expect(await failure(discovery)).to.be.instanceOf(PeppolRefusedError).with.property('message').that.match(/does not receive this document type/);
    publish(signedServiceMetadata(PARTICIPANT, INVOICE, [{ process: 'urn:other:process', endpoints: [{ url: AP }] }]));
    expect(await failure(discovery)).to.be.instanceOf(PeppolRefusedError).with.property('message').that.match(/in this process/);
  });

  it('does not follow an HTTP redirect from the SMP', async () => {
    const other = await startFakeSmp();
    try {
      other.routes.set(metadataPath(PARTICIPANT, INVOICE), { body: billing() });
      publish('');
      smp.routes.set(metadataPath(PARTICIPANT, INVOICE), { status: 302, body: '', headers: { location: `${other.url}${metadataPath(PARTICIPANT, INVOICE)}` } });
      await transportFailure(peppolDiscovery(options()), /redirect, which is not followed/);
      expect(other.requests).to.deep.equal([]);
    } finally {
      await other.close();
    }
  });

  it('follows an SMP Redirect element once, to an SMP signing with the certificate it names, and not to another', async () => {
    const other = await startFakeSmp();
    try {
      other.routes.set(metadataPath(PARTICIPANT, INVOICE), { body: billing() });
      publish(redirectMetadata(`${other.url}${metadataPath(PARTICIPANT, INVOICE)}`));
      expect((await peppolDiscovery(options()).endpointFor(QUERY)).url).to.equal(AP);
      publish(redirectMetadata(`${other.url}${metadataPath(PARTICIPANT, INVOICE)}`, 'CN=SMP somebody else,O=Test SMP,C=SK'));
      await transportFailure(peppolDiscovery(options()), /does not sign with the certificate the redirect names/);
    } finally {
      await other.close();
    }
  });

  it('refuses an SMP at a loopback address from DNS unless loopback is allowed for tests', async () => {
    publish(billing());
    await transportFailure(peppolDiscovery(options({ guard: { allowLoopback: false, resolve: systemResolver } })), /address that may not be called/);
    expect(smp.requests).to.deep.equal([]);
  });

  it('refuses an SMP whose name resolves to a private address, and connects to the address it checked', async () => {
    const port = new URL(smp.url).port;
    publish(billing(), `http://smp.example.test:${port}`);
    const answers: ResolvedAddress[][] = [[{ address: '10.1.2.3', family: 4 }]];
    const resolve = async () => answers.shift() ?? [{ address: '127.0.0.1', family: 4 as const }];
    await transportFailure(peppolDiscovery(options({ guard: { allowLoopback: true, resolve } })), /address that may not be called/);
    expect(smp.requests).to.deep.equal([]);
    // the next answer admits loopback (allowed here): the request reaches the fake SMP at the checked address, Host as named
    expect((await peppolDiscovery(options({ guard: { allowLoopback: true, resolve } })).endpointFor(QUERY)).url).to.equal(AP);
  });

  it('cuts off an SMP answer larger than allowed', async () => {
    publish(`<?xml version="1.0"?><x>${'a'.repeat(3 * 1024 * 1024)}</x>`);
    await transportFailure(peppolDiscovery(options()), /larger than allowed/);
  });

  it('gives up on a slow SMP within the timeout', async () => {
    publish(billing());
    smp.routes.set(metadataPath(PARTICIPANT, INVOICE), { body: billing(), delayMs: 5_000 });
    const started = Date.now();
    await transportFailure(peppolDiscovery(options()), /did not answer in time/);
    expect(Date.now() - started).to.be.below(2_000);
  });

  it('uses a static entry before the SML, its URL as written, its certificate still checked', async () => {
    const table = parseStaticEndpoints({ [PARTICIPANT.toUpperCase()]: { url: 'http://127.0.0.1:1/as4', certificate: apIdentity().certificatePem } }, 'test', '.');
    const pki = trusting();
    const found = await peppolDiscovery(options({ staticEndpoints: table, checkCertificate: pki.check })).endpointFor(QUERY);
    expect(found).to.deep.include({ url: 'http://127.0.0.1:1/as4', source: 'static', guarded: false });
    expect(pki.asked).to.deep.equal([{ purpose: 'ap', subject: apIdentity().certificate.subject }]);
    expect(dns.queries).to.deep.equal([]);

    const untrusted = peppolDiscovery(options({ staticEndpoints: table, checkCertificate: trusting({ ap: [] }).check }));
    expect(await failure(untrusted)).to.be.instanceOf(PeppolRefusedError).with.property('message').that.match(/not a Peppol Access Point certificate/);
  });

  it('keeps answers for their lifetimes: the SMP for smpCacheMs, the SML for dnsCacheMs', async () => {
    publish(billing());
    const discovery = peppolDiscovery(options({ smpCacheMs: 60_000, dnsCacheMs: 10_000 }));
    await discovery.endpointFor(QUERY);
    await discovery.endpointFor(QUERY);
    expect(dns.queries).to.have.length(1);
    expect(smp.requests).to.have.length(1);

    now += 30_000; // the SMP's answer is still good
    await discovery.endpointFor(QUERY);
    expect(smp.requests).to.have.length(1);

    now += 31_000; // both have expired
    await discovery.endpointFor(QUERY);
    expect(dns.queries).to.have.length(2);
    expect(smp.requests).to.have.length(2);
  });

  it('does not keep failures: a participant registered since is found at the next attempt', async () => {
    const discovery = peppolDiscovery(options({ dnsCacheMs: 0 }));
    expect(await failure(discovery)).to.be.instanceOf(PeppolRefusedError);
    publish(billing());
    expect((await discovery.endpointFor(QUERY)).url).to.equal(AP);
  });
});
