/**
 * Reading an SMP 1.x SignedServiceMetadata: either the service information for one document type
 * (its processes, each with its endpoints) or a Redirect to another SMP.
 *
 * It reads what it is given: the signature is checked before (smp-signature.ts), and what is read
 * here is the XML that signature covers.
 */
import type { XmlElement } from '../../../../platform/xml/index.ts';
import { elementsAt, failed, identifierAt, isElement, textAt, type SmpIdentifier } from './smp-xml.ts';

export interface SmpEndpoint {
  /** e.g. `peppol-transport-as4-v2_0` */
  transportProfile: string;
  /** the Access Point's URL (wsa:EndpointReference/wsa:Address) */
  url: string;
  /** xs:dateTime as written, or null */
  activation: string | null;
  expiration: string | null;
  /** the Access Point's certificate, base64 DER as the SMP writes it, or null */
  certificate: string | null;
}

export interface SmpProcess {
  process: SmpIdentifier;
  endpoints: SmpEndpoint[];
}

export interface ServiceInformation {
  participant: SmpIdentifier;
  documentType: SmpIdentifier;
  processes: SmpProcess[];
}

export type ServiceMetadata =
  | { kind: 'service'; service: ServiceInformation }
  /** certificateUid: the subject of the certificate the destination SMP must sign with */
  | { kind: 'redirect'; href: string; certificateUid: string | null };

/** Accepts SignedServiceMetadata (what the spec serves) and a bare ServiceMetadata. */
export function readServiceMetadata(root: XmlElement, source: string): ServiceMetadata {
  let metadata: XmlElement | null = null;
  if (isElement(root, 'SignedServiceMetadata')) metadata = elementsAt(root, 'smp:ServiceMetadata')[0] ?? null;
  else if (isElement(root, 'ServiceMetadata')) metadata = root;
  if (metadata === null) throw failed(`${source} is not an SMP 1.x SignedServiceMetadata (root ${root.name})`);

  const redirect = elementsAt(metadata, 'smp:Redirect')[0];
  if (redirect !== undefined) {
    const href = redirect.attr('href')?.value.trim() ?? '';
    if (href === '') throw failed(`${source} redirects without an href`);
    return { kind: 'redirect', href, certificateUid: textAt(redirect, 'smp:CertificateUID') };
  }
  const information = elementsAt(metadata, 'smp:ServiceInformation')[0];
  if (information === undefined) throw failed(`${source} has neither ServiceInformation nor Redirect`);
  const participant = identifierAt(information, 'ids:ParticipantIdentifier');
  const documentType = identifierAt(information, 'ids:DocumentIdentifier');
  if (participant === null || documentType === null) throw failed(`${source} lacks its participant or document identifier`);
  const processes = elementsAt(information, 'smp:ProcessList/smp:Process').map((element) => readProcess(element, source));
  return { kind: 'service', service: { participant, documentType, processes } };
}

function readProcess(element: XmlElement, source: string): SmpProcess {
  const process = identifierAt(element, 'ids:ProcessIdentifier');
  if (process === null) throw failed(`${source} has a process without an identifier`);
  const endpoints = elementsAt(element, 'smp:ServiceEndpointList/smp:Endpoint').map((endpoint) => ({
    transportProfile: endpoint.attr('transportProfile')?.value.trim() ?? '',
    url: textAt(endpoint, 'wsa:EndpointReference/wsa:Address') ?? '',
    activation: textAt(endpoint, 'smp:ServiceActivationDate'),
    expiration: textAt(endpoint, 'smp:ServiceExpirationDate'),
    certificate: textAt(endpoint, 'smp:Certificate'),
  }));
  return { process, endpoints };
}
