/**
 * SMP answers are untrusted XML. They go through the project's hardened parser
 * (src/validation/safe-xml.ts: any DOCTYPE refused before parsing, so no DTD and no entities;
 * NONET and NO_XXE; size and depth limits). Nothing in it is UBL-specific except a root check we
 * ignore. Any refusal is a failed lookup: we cannot tell what the SMP meant.
 */
import type { XmlElement } from '../../../../platform/xml/index.ts';
import { parseUntrusted } from '../../../../platform/xml/index.ts';
import { ParticipantLookupError } from '../participants.ts';

/** Peppol SMP 1.x (the BusDox namespaces), the only SMP protocol the Peppol network uses. */
const SMP_NS = {
  smp: 'http://busdox.org/serviceMetadata/publishing/1.0/',
  ids: 'http://busdox.org/transport/identifiers/1.0/',
  wsa: 'http://www.w3.org/2005/08/addressing',
} as const;

/** OASIS SMP 2.0 root namespaces: recognised only to say clearly that they are not supported. */
const OASIS_SMP2_PREFIX = 'http://docs.oasis-open.org/bdxr/ns/SMP/2/';

const REFUSALS: Record<string, string> = {
  'XML-DOCTYPE': 'contains a DOCTYPE (DTDs and entities are refused)',
  'XML-TOO-LARGE': 'is too large',
  'XML-TOO-DEEP': 'is nested too deeply',
  'XML-MALFORMED': 'is not well-formed XML',
};

/**
 * Parses an SMP answer and runs `read` on its root element; the libxml2 document is always
 * disposed, so `read` must copy out what it needs. `source` names the resource in errors.
 */
export function withSmpXml<T>(body: Uint8Array, source: string, read: (root: XmlElement) => T): T {
  const result = parseUntrusted(body);
  if (!result.ok) {
    const { rule, message } = result.finding;
    // the shared parser words its DOCTYPE refusal for UBL; the other findings carry useful detail
    throw failed(rule === 'XML-DOCTYPE' ? `${source} ${REFUSALS[rule]}` : `${source} ${REFUSALS[rule] ?? 'was refused'}: ${message}`);
  }
  const { doc } = result.parsed;
  try {
    const root = doc.root;
    if (root.namespaceUri.startsWith(OASIS_SMP2_PREFIX)) {
      throw failed(`${source} is OASIS SMP 2.0, which this lookup does not support (Peppol uses SMP 1.x)`);
    }
    return read(root);
  } finally {
    doc.dispose();
  }
}

export function failed(message: string): ParticipantLookupError {
  return new ParticipantLookupError('participant_lookup_failed', message);
}

/** The trimmed text at `xpath` below `node`, or null when absent or blank. */
export function textAt(node: XmlElement, xpath: string): string | null {
  const found = node.get(xpath, SMP_NS);
  const value = found?.content.trim() ?? '';
  return value === '' ? null : value;
}

export function elementsAt(node: XmlElement, xpath: string): XmlElement[] {
  return node.find(xpath, SMP_NS) as XmlElement[];
}

/** A scheme-qualified identifier as SMP 1.x writes it: `<ids:X scheme="…">value</ids:X>`. */
export interface SmpIdentifier {
  scheme: string;
  value: string;
}

export function identifierAt(node: XmlElement, xpath: string): SmpIdentifier | null {
  const element = node.get(xpath, SMP_NS) as XmlElement | null;
  if (element === null) return null;
  const value = element.content.trim();
  if (value === '') return null;
  return { scheme: element.attr('scheme')?.value.trim() ?? '', value };
}

export function isElement(node: XmlElement, localName: string): boolean {
  return node.name === localName && node.namespaceUri === SMP_NS.smp;
}
