/**
 * Which endpoint of a participant's ServiceMetadata our Access Point sends to: the process asked
 * for (scheme cenbii-procid-ubl, compared case-sensitively), an endpoint with the transport profile
 * `peppol-transport-as4-v2_0` that is in service now, and its certificate (base64 DER in the SMP's
 * `Certificate` element) readable.
 */
import { X509Certificate } from 'node:crypto';
import { PROCESS_SCHEME } from '../identifiers.ts';
import { inService } from './capabilities.ts';
import type { ServiceInformation, SmpEndpoint } from './service-metadata.ts';

export const AS4_TRANSPORT_PROFILE = 'peppol-transport-as4-v2_0';

export type EndpointChoice =
  | { kind: 'found'; endpoint: SmpEndpoint; certificate: X509Certificate }
  | { kind: 'no_process' }
  | { kind: 'no_as4_endpoint' }
  | { kind: 'not_https' }
  | { kind: 'bad_certificate' };

/**
 * Peppol AS4 requires TLS (profile 2.0.3, 4.8: HTTPS on port 443), so an SMP-published AS4
 * endpoint must be an https URL; plain http only where tests allow loopback. (The SMP itself is
 * asked over http, as the SML names it: its answers are signed.)
 */
export function isAs4TransportUrl(url: string, allowHttp: boolean): boolean {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return false;
  }
  return protocol === 'https:' || (allowHttp && protocol === 'http:');
}

export function chooseAs4Endpoint(service: ServiceInformation, processId: string, now: Date, allowHttp = false): EndpointChoice {
  const processes = service.processes.filter((p) => p.process.scheme === PROCESS_SCHEME && p.process.value === processId);
  if (processes.length === 0) return { kind: 'no_process' };
  const candidates = processes
    .flatMap((p) => p.endpoints)
    .filter((e) => e.transportProfile === AS4_TRANSPORT_PROFILE && e.url !== '' && inService(e, now));
  if (candidates.length === 0) return { kind: 'no_as4_endpoint' };
  const endpoint = candidates.find((e) => isAs4TransportUrl(e.url, allowHttp));
  if (endpoint === undefined) return { kind: 'not_https' };
  const certificate = readEndpointCertificate(endpoint.certificate);
  return certificate === null ? { kind: 'bad_certificate' } : { kind: 'found', endpoint, certificate };
}

/** Base64 DER as SMP 1.x writes it; a PEM's armour is tolerated. */
export function readEndpointCertificate(text: string | null): X509Certificate | null {
  if (text === null) return null;
  const base64 = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (base64 === '') return null;
  try {
    return new X509Certificate(Buffer.from(base64, 'base64'));
  } catch {
    return null;
  }
}
