/**
 * The SOAP 1.2 envelope of a received AS4 message, parsed by the hardened parser (size and depth
 * bounds, no DOCTYPE): its header blocks by namespace and local name, each exactly once.
 */
import { parseUntrusted, type XmlDocument, type XmlElement } from '../../../../platform/xml/index.ts';
import { As4Error, otherError } from './errors.ts';
import { NS } from './names.ts';
import { isElement, onlyChild, optionalChild } from './xml-nodes.ts';

export interface SoapParts {
  doc: XmlDocument;
  header: XmlElement;
  body: XmlElement;
  messaging: XmlElement;
  /** wsse:Security, when there is one (an error signal may come without) */
  security: XmlElement | null;
}

/** Runs `use` on the parsed envelope and always frees the document. */
export async function withEnvelope<T>(xml: Buffer | string, use: (soap: SoapParts) => T | Promise<T>): Promise<T> {
  const result = parseUntrusted(xml);
  if (!result.ok) throw otherError(`the SOAP envelope is refused: ${result.finding.rule}: ${result.finding.message}`);
  const doc = result.parsed.doc;
  try {
    const root = doc.root;
    if (!isElement(root, NS.soap, 'Envelope')) throw otherError(`the root element is {${root.namespaceUri}}${root.name}, not a SOAP 1.2 Envelope`);
    const header = onlyChild(root, NS.soap, 'Header');
    const body = onlyChild(root, NS.soap, 'Body');
    const messaging = onlyChild(header, NS.eb, 'Messaging');
    const security = optionalChild(header, NS.wsse, 'Security');
    return await use({ doc, header, body, messaging, security });
  } finally {
    doc.dispose();
  }
}

/** The eb:MessageId as written, unverified: only to say which message an error answers. */
export function claimedMessageId(messaging: XmlElement): string | undefined {
  const found = messaging.find('./*/*[local-name()="MessageInfo"]/*[local-name()="MessageId"]');
  const first = found[0];
  return found.length === 1 && first ? first.content.trim() : undefined;
}

export const withRef = (err: unknown, refToMessageId: string | undefined): As4Error => {
  const as4 = err instanceof As4Error ? err : otherError(err instanceof Error ? err.message : String(err));
  return as4.refToMessageId === undefined && refToMessageId !== undefined ? new As4Error(as4.code, as4.reason, refToMessageId) : as4;
};
