/**
 * Reading an SMP 1.x ServiceGroup: the participant and the references to its SignedServiceMetadata,
 * one per document type. A reference's URL names the document type in its last path segment
 * (`…/services/busdox-docid-qns%3A%3Aurn…`); we keep that identifier rather than the URL (see
 * smp-client.ts for why).
 */
import type { XmlElement } from '../../../../platform/xml/index.ts';
import { elementsAt, failed, identifierAt, isElement, type SmpIdentifier } from './smp-xml.ts';

export interface ServiceGroup {
  participant: SmpIdentifier | null;
  /** the document types referenced, scheme-qualified as the SMP wrote them */
  documentTypes: SmpIdentifier[];
}

export function readServiceGroup(root: XmlElement, source: string): ServiceGroup {
  if (!isElement(root, 'ServiceGroup')) throw failed(`${source} is not an SMP 1.x ServiceGroup (root ${root.name})`);
  const references = elementsAt(root, 'smp:ServiceMetadataReferenceCollection/smp:ServiceMetadataReference');
  return {
    participant: identifierAt(root, 'ids:ParticipantIdentifier'),
    documentTypes: references.map((reference) => {
      const href = reference.attr('href')?.value.trim() ?? '';
      const documentType = documentTypeOfReference(href);
      if (documentType === null) throw failed(`${source} has a reference that names no document type: "${href}"`);
      return documentType;
    }),
  };
}

const SERVICES_SEGMENT = '/services/';

/**
 * `https://smp/iso6523-actorid-upis%3A%3A0088%3A1/services/busdox-docid-qns%3A%3Aurn…` → the
 * document type. Read from the raw string: an SMP that forgot to percent-encode the `#` of a
 * document type would otherwise lose half of it to the URL fragment.
 */
export function documentTypeOfReference(href: string): SmpIdentifier | null {
  const at = href.lastIndexOf(SERVICES_SEGMENT);
  if (at < 0) return null;
  const segment = href.slice(at + SERVICES_SEGMENT.length);
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  const separator = decoded.indexOf('::');
  if (separator <= 0) return null;
  const value = decoded.slice(separator + 2);
  return value === '' ? null : { scheme: decoded.slice(0, separator), value };
}
