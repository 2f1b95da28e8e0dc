/** Peppol discovery: static routes, the SML (BDXL) and the SMP (see README.md). */
export {
  peppolDiscovery,
  DEFAULT_TIMEOUT_MS,
  type DiscoveredEndpoint,
  type DiscoveryOptions,
  type EndpointQuery,
  type PeppolDiscovery,
} from './discovery.ts';
export { AS4_TRANSPORT_PROFILE } from './endpoint-choice.ts';
export { loadStaticEndpoints, type StaticEndpoints } from './static-endpoints.ts';
export { parseSmpParticipantId, participantValue, qualifiedParticipantId } from './participant-id.ts';
export { participantHashLabel, smlHostName } from './sml-name.ts';
export { chooseSmpUrl, applyUnaptrRegexp, SMP_NAPTR_SERVICE, type NaptrRecord } from './naptr-select.ts';
