/** SMP 1.x XML as a Peppol SMP serves it, written for the tests and signed with the test SMP's key (test-pki.ts). */
import { smpResourceUrl } from '../../../src/modules/delivery/peppol/smp/smp-client.ts';
import { apIdentity, smpIdentity, signSmp, type TestIdentity } from './test-pki.ts';

export const INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
export const CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
export const ORDER = 'urn:oasis:names:specification:ubl:schema:xsd:Order-2::Order##urn:fdc:peppol.eu:poacc:trns:order:3::2.1';
export const BILLING = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const AS4 = 'peppol-transport-as4-v2_0';

const NS = 'xmlns="http://busdox.org/serviceMetadata/publishing/1.0/" xmlns:ids="http://busdox.org/transport/identifiers/1.0/" xmlns:wsa="http://www.w3.org/2005/08/addressing" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';

/** `/iso6523-actorid-upis%3A%3A0088%3A…` */
export function groupPath(participant: string): string {
  return new URL(smpResourceUrl('http://x', `iso6523-actorid-upis::${participant}`)).pathname;
}

export function metadataPath(participant: string, documentType: string): string {
  return new URL(smpResourceUrl('http://x', `iso6523-actorid-upis::${participant}`, 'services', `busdox-docid-qns::${documentType}`)).pathname;
}

export function serviceGroup(smpUrl: string, participant: string, documentTypes: string[]): string {
  const references = documentTypes
    .map((d) => `<ServiceMetadataReference href="${smpUrl}${metadataPath(participant, d)}"/>`)
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ServiceGroup ${NS}>
  <ids:ParticipantIdentifier scheme="iso6523-actorid-upis">${participant}</ids:ParticipantIdentifier>
  <ServiceMetadataReferenceCollection>
    ${references}
  </ServiceMetadataReferenceCollection>
</ServiceGroup>`;
}

export interface FixtureProcess {
  process: string;
  endpoints: { url: string; profile?: string; activation?: string; expiration?: string; certificate?: string }[];
}

/** Signed by the test SMP (or `signer`), as an SMP serves it. */
export function signedServiceMetadata(participant: string, documentType: string, processes: FixtureProcess[], signer: TestIdentity = smpIdentity()): string {
  return signSmp(serviceMetadata(participant, documentType, processes), signer);
}

/** The same document before the SMP signs it. */
export function serviceMetadata(participant: string, documentType: string, processes: FixtureProcess[]): string {
  const processXml = processes
    .map(
      (p) => `<Process>
          <ids:ProcessIdentifier scheme="cenbii-procid-ubl">${p.process}</ids:ProcessIdentifier>
          <ServiceEndpointList>${p.endpoints.map(endpoint).join('')}
          </ServiceEndpointList>
        </Process>`,
    )
    .join('\n        ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<SignedServiceMetadata ${NS}>
  <ServiceMetadata>
    <ServiceInformation>
      <ids:ParticipantIdentifier scheme="iso6523-actorid-upis">${participant}</ids:ParticipantIdentifier>
      <ids:DocumentIdentifier scheme="busdox-docid-qns">${escape(documentType)}</ids:DocumentIdentifier>
      <ProcessList>
        ${processXml}
      </ProcessList>
    </ServiceInformation>
  </ServiceMetadata>
</SignedServiceMetadata>`;
}

function endpoint(e: FixtureProcess['endpoints'][number]): string {
  return `
            <Endpoint transportProfile="${e.profile ?? AS4}">
              <wsa:EndpointReference><wsa:Address>${e.url}</wsa:Address></wsa:EndpointReference>
              <RequireBusinessLevelSignature>false</RequireBusinessLevelSignature>${e.activation ? `
              <ServiceActivationDate>${e.activation}</ServiceActivationDate>` : ''}${e.expiration ? `
              <ServiceExpirationDate>${e.expiration}</ServiceExpirationDate>` : ''}
              <Certificate>${e.certificate ?? apIdentity().base64}</Certificate>
              <ServiceDescription>Test AP</ServiceDescription>
              <TechnicalContactUrl>mailto:ap@example.test</TechnicalContactUrl>
            </Endpoint>`;
}

/** A signed Redirect; `certificateUid` names the destination's signing certificate (RFC 2253). */
export function redirectMetadata(href: string, certificateUid = 'CN=SMP test smp,O=Test SMP,C=SK', signer: TestIdentity = smpIdentity()): string {
  return signSmp(`<?xml version="1.0" encoding="UTF-8"?>
<SignedServiceMetadata ${NS}>
  <ServiceMetadata>
    <Redirect href="${escape(href)}"><CertificateUID>${escape(certificateUid)}</CertificateUID></Redirect>
  </ServiceMetadata>
</SignedServiceMetadata>`, signer);
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
