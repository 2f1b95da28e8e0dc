/**
 * Peppol discovery: where and to which certificate a document for a participant goes, and (for
 * POST /tools/peppol-check) what the participant receives. Both answers come from the same steps:
 *
 * 1. the static routing table (PEPPOL_STATIC_ENDPOINTS), before anything else;
 * 2. the SML: a U-NAPTR lookup of the participant's hash name in SML_ZONE (through DNS_SERVER);
 * 3. the participant's SMP: the signed ServiceMetadata, its signature verified and its signer a
 *    Peppol SMP certificate, and the endpoint's certificate a Peppol Access Point certificate
 *    (both judged by the injected `checkCertificate`, the PKI's).
 *
 * Answers are cached: the SML's for `dnsCacheMs` (node:dns does not report a NAPTR record's TTL; the
 * default is the SML's 60 s), the SMP's for `smpCacheMs`, at most `maxCacheEntries` each. Failures
 * are not cached. For sending, a participant that cannot be found (not in the SML, no such
 * service, no AS4 endpoint, not an Access Point certificate) is a PeppolRefusedError: retrying
 * cannot help. Anything else (DNS or SMP unreachable, a refused address, a bad signature) is a
 * PeppolTransportError. Messages name the participant, never a URL or a status.
 */
import type { X509Certificate } from 'node:crypto';
import type { Logger } from 'pino';
import type { GuardedRequest, GuardedAnswer } from '../../../../platform/http-client/guarded-request.ts';
import type { TargetOptions } from '../../../../platform/http-client/target-guard.ts';
import { systemClock, type Clock } from '../../../../platform/ports/clock.ts';
import { TtlCache } from '../../../../platform/ttl-cache.ts';
import type { CheckCertificate } from '../certificate-check.ts';
import { DOCUMENT_TYPE_SCHEME } from '../identifiers.ts';
import { PeppolRefusedError, PeppolTransportError } from '../peppol-network.ts';
import { ParticipantLookupError, type ParticipantLookup } from '../participants.ts';
import { lookupFromSmp, lookupFromStatic, notRegistered } from './directory.ts';
import { AS4_TRANSPORT_PROFILE, chooseAs4Endpoint } from './endpoint-choice.ts';
import { parseSmpParticipantId, participantValue, type ParticipantId } from './participant-id.ts';
import { checkDnsServers, lookupSmpUrl } from './sml-lookup.ts';
import { normaliseZone, smlHostName } from './sml-name.ts';
import { readParticipantFromSmp, readSignedService, type SmpClientOptions } from './smp-client.ts';
import { NO_STATIC_ENDPOINTS, type StaticEndpoints } from './static-endpoints.ts';

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_DNS_CACHE_MS = 60_000;
export const DEFAULT_SMP_CACHE_MS = 3_600_000;
export const DEFAULT_MAX_CACHE_ENTRIES = 10_000;

export interface DiscoveryOptions {
  /** SML_ZONE: `edelivery.tech.ec.europa.eu` (production SML) or `acc.edelivery.tech.ec.europa.eu` (test SMK) */
  smlZone: string;
  /** DNS_SERVER (`ip:port`); the system's resolvers when absent */
  dnsServers?: string[];
  /** per DNS query and per SMP request */
  timeoutMs?: number;
  dnsCacheMs?: number;
  smpCacheMs?: number;
  maxCacheEntries?: number;
  /** PEPPOL_STATIC_ENDPOINTS, consulted before the SML */
  staticEndpoints?: StaticEndpoints;
  /** the PKI: is this a Peppol SMP / Access Point certificate? */
  checkCertificate: CheckCertificate;
  /** the SSRF guard for addresses learned from DNS or an SMP (loopback only for tests) */
  guard: TargetOptions;
  clock?: Clock;
  log?: Pick<Logger, 'warn'>;
  /** for tests: the HTTP exchange */
  request?: (request: GuardedRequest) => Promise<GuardedAnswer>;
}

export interface EndpointQuery {
  participantId: string;
  /** busdox-docid-qns value */
  documentTypeId: string;
  /** cenbii-procid-ubl value */
  processId: string;
}

export interface DiscoveredEndpoint {
  /** normalised `<scheme>:<id>` */
  participant_id: string;
  url: string;
  /** the receiving Access Point's certificate (encrypt to it, verify its receipts with it) */
  certificate: X509Certificate;
  transport_profile: typeof AS4_TRANSPORT_PROFILE;
  source: 'static' | 'smp';
  /**
   * true when the URL was learned from DNS or an SMP: it must be called through the guard
   * (src/platform/http-client/guarded-request.ts). A static entry's URL is used as written.
   */
  guarded: boolean;
}

export interface PeppolDiscovery {
  /** Where to send; throws PeppolRefusedError (cannot be found) or PeppolTransportError (try again later). */
  endpointFor(query: EndpointQuery): Promise<DiscoveredEndpoint>;
  /** The ParticipantDirectory port (POST /tools/peppol-check); throws ParticipantLookupError. */
  lookup(participantId: string): Promise<ParticipantLookup>;
}

export function peppolDiscovery(options: DiscoveryOptions): PeppolDiscovery {
  const zone = normaliseZone(options.smlZone); // a bad zone fails at start-up, not per lookup
  if (options.dnsServers !== undefined) checkDnsServers(options.dnsServers); // likewise
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = options.clock ?? systemClock;
  const maxEntries = options.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES;
  const dnsCacheMs = options.dnsCacheMs ?? DEFAULT_DNS_CACHE_MS;
  const smpCacheMs = options.smpCacheMs ?? DEFAULT_SMP_CACHE_MS;
  const statics = options.staticEndpoints ?? NO_STATIC_ENDPOINTS;
  const logDetail = (detail: string) => options.log?.warn({ detail }, 'peppol discovery');
  const smp: SmpClientOptions = { guard: options.guard, timeoutMs, checkCertificate: options.checkCertificate, logDetail, request: options.request };

  const smlAnswers = new TtlCache<string | null>(clock, maxEntries);
  const endpoints = new TtlCache<DiscoveredEndpoint>(clock, maxEntries);
  const lookups = new TtlCache<ParticipantLookup>(clock, maxEntries);

  /** The SMP's URL from the SML (cached), or null when the SML does not know the participant. */
  async function smpUrlOf(id: ParticipantId): Promise<string | null> {
    const name = smlHostName(id, zone);
    const cached = smlAnswers.get(name);
    if (cached !== undefined) return cached;
    const url = await lookupSmpUrl(name, `participant ${participantValue(id)}`, { dnsServers: options.dnsServers, timeoutMs, logDetail });
    smlAnswers.set(name, url, dnsCacheMs);
    return url;
  }

  /** Kept until the cache time, the endpoint's expiration or the certificate's end, whichever comes first. */
  function lifetime(certificate: X509Certificate, expiration: string | null): number {
    const now = clock.now().getTime();
    const ends = [now + smpCacheMs, Date.parse(certificate.validTo)];
    if (expiration !== null) ends.push(Date.parse(expiration));
    return Math.min(...ends.filter((t) => !Number.isNaN(t))) - now;
  }

  async function checkAp(certificate: X509Certificate, participant: string): Promise<void> {
    const verdict = await options.checkCertificate(certificate, 'ap');
    if (!verdict.ok) {
      throw new PeppolRefusedError(`the Access Point of participant ${participant} has a certificate that is not a Peppol Access Point certificate (${verdict.reason}: ${verdict.message})`);
    }
  }

  async function discover(query: EndpointQuery): Promise<DiscoveredEndpoint> {
    const id = parseSmpParticipantId(query.participantId);
    const participant = participantValue(id);
    const key = JSON.stringify([participant, query.documentTypeId, query.processId]);
    const cached = endpoints.get(key);
    if (cached !== undefined) return cached;

    const fixed = statics.get(participant);
    if (fixed !== undefined) {
      await checkAp(fixed.certificate, participant);
      const found: DiscoveredEndpoint = { participant_id: participant, url: fixed.url, certificate: fixed.certificate, transport_profile: AS4_TRANSPORT_PROFILE, source: 'static', guarded: false };
      endpoints.set(key, found, lifetime(fixed.certificate, null));
      return found;
    }

    const smpUrl = await smpUrlOf(id);
    if (smpUrl === null) throw new PeppolRefusedError(`participant ${participant} is not registered in the Peppol network (the SML does not know it)`);
    const service = await readSignedService(smpUrl, id, { scheme: DOCUMENT_TYPE_SCHEME, value: query.documentTypeId }, smp);
    if (service === null) throw new PeppolRefusedError(`participant ${participant} does not receive this document type (its SMP lists no such service)`);
    const choice = chooseAs4Endpoint(service, query.processId, clock.now(), options.guard.allowLoopback);
    if (choice.kind === 'no_process') throw new PeppolRefusedError(`participant ${participant} does not receive this document type in this process`);
    if (choice.kind === 'no_as4_endpoint') throw new PeppolRefusedError(`participant ${participant} has no ${AS4_TRANSPORT_PROFILE} endpoint in service for this document type`);
    if (choice.kind === 'not_https') throw new PeppolRefusedError(`the SMP of participant ${participant} names an AS4 endpoint that is not https, which Peppol AS4 does not allow`);
    if (choice.kind === 'bad_certificate') throw new PeppolRefusedError(`the SMP of participant ${participant} gives an endpoint certificate that cannot be read`);
    await checkAp(choice.certificate, participant);
    const found: DiscoveredEndpoint = { participant_id: participant, url: choice.endpoint.url, certificate: choice.certificate, transport_profile: AS4_TRANSPORT_PROFILE, source: 'smp', guarded: true };
    endpoints.set(key, found, lifetime(choice.certificate, choice.endpoint.expiration));
    return found;
  }

  return {
    async endpointFor(query) {
      try {
        return await discover(query);
      } catch (error) {
        if (!(error instanceof ParticipantLookupError)) throw error;
        if (error.code === 'invalid_participant_id') throw new PeppolRefusedError(error.message);
        throw new PeppolTransportError(error.message);
      }
    },

    async lookup(participantId) {
      const id = parseSmpParticipantId(participantId);
      const participant = participantValue(id);
      const fixed = statics.get(participant);
      if (fixed !== undefined) return lookupFromStatic(id, fixed.url, (await options.checkCertificate(fixed.certificate, 'ap')).ok);
      const cached = lookups.get(participant);
      if (cached !== undefined) return cached;
      const smpUrl = await smpUrlOf(id);
      if (smpUrl === null) return notRegistered(id, null);
      const found = await readParticipantFromSmp(smpUrl, id, smp);
      const answer = found.registered ? await lookupFromSmp(id, smpUrl, found.services, options.checkCertificate, clock.now(), options.guard.allowLoopback) : notRegistered(id, smpUrl);
      lookups.set(participant, answer, smpCacheMs);
      return answer;
    },
  };
}
