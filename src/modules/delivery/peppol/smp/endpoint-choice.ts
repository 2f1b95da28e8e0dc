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
  | { kind: 'bad_certificate' };

export function chooseAs4Endpoint(service: ServiceInformation, processId: string, now: Date): EndpointChoice {
  const processes = service.processes.filter((p) => p.process.scheme === PROCESS_SCHEME && p.process.value === processId);
  if (processes.length === 0) return { kind: 'no_process' };
  const endpoint = processes
    .flatMap((p) => p.endpoints)
    .find((e) => e.transportProfile === AS4_TRANSPORT_PROFILE && e.url !== '' && inService(e, now));
  if (endpoint === undefined) return { kind: 'no_as4_endpoint' };
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
