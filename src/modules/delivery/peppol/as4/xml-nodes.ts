/**
 * Reading a parsed SOAP message by namespace and local name, whatever prefixes the sender chose.
 * Strict on multiplicity: an element the profile has once must be there once, or the message is
 * refused (a second eb:Messaging or ds:Signature is how a wrapping attack starts).
 */
import { XmlElement, type XmlAttribute, type XmlDocument } from '../../../../platform/xml/index.ts';
import { otherError, type As4Error } from './errors.ts';

export function childElements(parent: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let node = parent.firstChild; node !== null; node = node.next) if (node instanceof XmlElement) out.push(node);
  return out;
}

export const isElement = (element: XmlElement, ns: string, local: string) => element.name === local && element.namespaceUri === ns;

export function children(parent: XmlElement, ns: string, local: string): XmlElement[] {
  return childElements(parent).filter((child) => isElement(child, ns, local));
}

/** The one child `local` in `ns`; otherwise the error `refuse` makes (EBMS:0004 by default). */
export function onlyChild(parent: XmlElement, ns: string, local: string, refuse: (reason: string) => As4Error = otherError): XmlElement {
  const found = children(parent, ns, local);
  if (found.length !== 1) throw refuse(`${parent.name} must have exactly one ${local}; it has ${found.length}`);
  return found[0] as XmlElement;
}

export function optionalChild(parent: XmlElement, ns: string, local: string, refuse: (reason: string) => As4Error = otherError): XmlElement | null {
  const found = children(parent, ns, local);
  if (found.length > 1) throw refuse(`${parent.name} has ${found.length} ${local} elements; at most one is allowed`);
  return found[0] ?? null;
}

/** An attribute by local name (in no namespace unless `ns` is given). */
export function attribute(element: XmlElement, local: string, ns = ''): string | null {
  const found = element.attrs.find((a) => a.name === local && (a.namespaceUri ?? '') === ns);
  return found ? found.value : null;
}

export const textOf = (element: XmlElement) => element.content.trim();

const ID_NAMES = new Set(['Id', 'ID', 'id']);

/**
 * Every element carrying `id` in an Id attribute (wsu:Id, an unprefixed Id, or Id in another
 * namespace): a reference resolves only when exactly one does.
 */
export function elementsWithId(doc: XmlDocument, id: string): XmlElement[] {
  const attrs = doc.find('//@*') as XmlAttribute[];
  const out: XmlElement[] = [];
  for (const a of attrs) {
    if (ID_NAMES.has(a.name) && a.value === id && a.parent instanceof XmlElement) out.push(a.parent);
  }
  return out;
}
