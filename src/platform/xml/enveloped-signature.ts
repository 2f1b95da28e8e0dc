/**
 * An enveloped XML signature over a whole document (as Peppol SMPs sign SignedServiceMetadata):
 * one ds:Signature, a child of the document element, whose one Reference (URI "") covers the whole
 * document. xml-crypto (with @xmldom/xmldom) checks digest and signature value; this file only
 * decides which signatures it will accept, so that a wrapped document cannot pass:
 *
 * - exactly one ds:Signature in the document, directly under the expected root element;
 * - exactly one Reference, to "" (the document element), with the enveloped-signature transform;
 * - what the caller then reads is the XML xml-crypto verified (getSignedReferences), never a node of
 *   the document as received: a second ServiceMetadata smuggled in elsewhere is not what was signed.
 *
 * Algorithms: RSA-SHA256 (or stronger) over SHA-256 (or SHA-512) digests, canonicalised with
 * exclusive C14N or C14N 1.0/1.1. C14N 1.1 (what phoss-SMP writes since SMP 1.2) differs from 1.0
 * only in how xml:id/xml:base are inherited into a document subset whose ancestors are left out;
 * an enveloped signature over the whole document leaves out only the Signature element itself,
 * whose own subtree is left out with it, so xml-crypto's C14N 1.0 gives the same octets.
 *
 * The signing certificate is returned, not judged: whether it is trusted is the caller's call.
 * Give it only text parseUntrusted (./parse.ts) has accepted: xmldom is not the hardened parser,
 * it only reads what that parser let through (no DOCTYPE, bounded size and depth).
 */
import { X509Certificate } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { C14nCanonicalization, SignedXml } from 'xml-crypto';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const C14N_11 = 'http://www.w3.org/2006/12/xml-c14n11';

const CANONICALISATIONS = new Set([
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  C14N_11,
]);
const SIGNATURE_METHODS = new Set(['http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512']);
const DIGEST_METHODS = new Set(['http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2001/04/xmlenc#sha512']);

export type EnvelopedSignatureCheck =
  /** signedXml: the canonical XML the signature covers (the document without its Signature): read this, not the input */
  | { ok: true; signedXml: string; certificate: X509Certificate }
  /** reason: words that follow the document's name, e.g. `is not signed` */
  | { ok: false; reason: string };

/** The document element the signature must sit under and cover. */
export interface SignedRoot {
  namespace: string;
  localName: string;
}

/** `xml` has already passed parseUntrusted (no DOCTYPE, size and depth bounded). */
export function verifyEnvelopedSignature(xml: string, expected: SignedRoot): EnvelopedSignatureCheck {
  let root: Element | null;
  try {
    root = new DOMParser({ onError: stopOnError }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    return refuse('is not well-formed XML');
  }
  if (root === null || root.namespaceURI !== expected.namespace || root.localName !== expected.localName) return refuse(`is not a ${expected.localName}`);
  const signatures = Array.from(root.getElementsByTagNameNS(DS, 'Signature'));
  if (signatures.length === 0) return refuse('is not signed');
  if (signatures.length > 1) return refuse('carries more than one signature');
  const signature = signatures[0] as Element;
  if (signature.parentNode !== root) return refuse('has its signature somewhere other than under the document element');

  const shape = checkSignedInfo(signature);
  if (shape !== null) return refuse(shape);
  const certificate = signingCertificate(signature);
  if (certificate === null) return refuse('names no readable signing certificate (KeyInfo/X509Data/X509Certificate)');

  const verifier = new SignedXml({ publicCert: certificate.toString() });
  verifier.CanonicalizationAlgorithms[C14N_11] = C14nCanonicalization;
  try {
    verifier.loadSignature(signature as unknown as Node);
    if (!verifier.checkSignature(xml)) return refuse('has a digest that does not match its content');
  } catch {
    return refuse('has a signature that does not verify');
  }
  const signed = verifier.getSignedReferences();
  if (signed.length !== 1) return refuse('has a signature that does not cover the document');
  return { ok: true, signedXml: signed[0] as string, certificate };
}

/** null when SignedInfo has the one shape accepted, else why not. */
function checkSignedInfo(signature: Element): string | null {
  const signedInfo = only(signature, 'SignedInfo');
  if (signedInfo === null) return 'has a signature without one SignedInfo';
  const c14n = only(signedInfo, 'CanonicalizationMethod')?.getAttribute('Algorithm') ?? '';
  if (!CANONICALISATIONS.has(c14n)) return `is canonicalised with an algorithm not accepted (${c14n || 'none'})`;
  const method = only(signedInfo, 'SignatureMethod')?.getAttribute('Algorithm') ?? '';
  if (!SIGNATURE_METHODS.has(method)) return `is signed with an algorithm not accepted (${method || 'none'})`;
  const references = children(signedInfo, 'Reference');
  if (references.length !== 1) return 'has a signature with other than one Reference';
  const reference = references[0] as Element;
  if (reference.getAttribute('URI') !== '') return 'has a signature that does not cover the whole document (Reference URI is not "")';
  const transforms = only(reference, 'Transforms');
  const algorithms = transforms === null ? [] : children(transforms, 'Transform').map((t) => t.getAttribute('Algorithm') ?? '');
  if (!algorithms.includes(ENVELOPED)) return 'has a signature without the enveloped-signature transform';
  if (algorithms.some((a) => a !== ENVELOPED && !CANONICALISATIONS.has(a))) return 'has a signature with a transform not accepted';
  const digest = only(reference, 'DigestMethod')?.getAttribute('Algorithm') ?? '';
  if (!DIGEST_METHODS.has(digest)) return `has a digest algorithm not accepted (${digest || 'none'})`;
  return null;
}

function signingCertificate(signature: Element): X509Certificate | null {
  const keyInfo = only(signature, 'KeyInfo');
  if (keyInfo === null) return null;
  const certificates = Array.from(keyInfo.getElementsByTagNameNS(DS, 'X509Certificate'));
  const text = certificates[0]?.textContent?.replace(/\s+/g, '') ?? '';
  if (text === '') return null;
  try {
    return new X509Certificate(Buffer.from(text, 'base64'));
  } catch {
    return null;
  }
}

function children(parent: Element, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === node.ELEMENT_NODE && element.namespaceURI === DS && element.localName === localName) found.push(element);
  }
  return found;
}

function only(parent: Element, localName: string): Element | null {
  const found = children(parent, localName);
  return found.length === 1 ? (found[0] as Element) : null;
}

function stopOnError(level: 'warning' | 'error' | 'fatalError', message: string): void {
  if (level !== 'warning') throw new Error(message);
}

function refuse(why: string): EnvelopedSignatureCheck {
  return { ok: false, reason: why };
}
