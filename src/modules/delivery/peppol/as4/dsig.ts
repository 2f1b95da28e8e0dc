/**
 * XML Signature as the AS4 profile uses it: exclusive C14N (libxml2's, through the one XML module),
 * SHA-256 digests and RSA-SHA256 (Node's crypto). References are same-document Ids (eb:Messaging,
 * the SOAP Body) and `cid:` attachments with the SwA Attachment-Content-Signature-Transform, whose
 * digest is over the attachment's content octets.
 *
 * Why not xml-crypto here: its SignedXml resolves a Reference only as a same-document Id (the
 * private validateReference looks for an element whose Id equals the URI, so `cid:` fails and
 * checkSignature returns false), computeSignature requires every reference to select a node by
 * XPath, and digests are taken over strings, so binary attachment octets cannot pass through a
 * custom transform. It also parses with @xmldom/xmldom: a second parser beside the hardened one.
 * Verifying on the libxml2 tree the rest of the reader uses lets the reader check that the
 * element it reads is the very node a reference resolved to.
 */
import { createHash, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { XmlDocument, XmlElement } from '../../../../platform/xml/index.ts';
import { failedAuthentication } from './errors.ts';
import { ALGORITHM, NS } from './names.ts';
import { attribute, children, childElements, elementsWithId, onlyChild, optionalChild, textOf } from './xml-nodes.ts';

// XmlC14NMode.XML_C14N_EXCLUSIVE_1_0 of libxml2-wasm (only src/platform/xml may import the library)
const EXCLUSIVE = 1 as const;

const MAX_REFERENCES = 16;

export function exclusiveC14n(element: XmlElement, inclusivePrefixes: string[] = []): Buffer {
  // the element's subtree as a node set: libxml2 asks for every node of the document whether it is
  // in the set, and the node-set test answers from pointers, where the subtree form builds two JS
  // node objects per question (a third of reading a small message went there)
  const text = element.doc.canonicalizeToString({
    mode: EXCLUSIVE, withComments: false, nodeSet: new Set([element]), ...(inclusivePrefixes.length ? { inclusiveNamespacePrefixes: inclusivePrefixes } : {}),
  });
  return Buffer.from(text, 'utf8');
}

export const sha256Base64 = (octets: Buffer) => createHash('sha256').update(octets).digest('base64');

export const signRsaSha256 = (data: Buffer, key: KeyObject) => sign('sha256', data, key).toString('base64');

/** A ds:Reference as received (or sent): what a receipt's NonRepudiationInformation repeats. */
export interface SignedReference {
  uri: string;
  transforms: string[];
  digestMethod: string;
  digestValue: string;
}

/** A reference that checked out, with the element it resolved to (null for an attachment). */
export interface VerifiedReference extends SignedReference {
  element: XmlElement | null;
}

export interface VerifyOptions {
  /** the content of the attachment a `cid:` URI names, decrypted; null when there is none */
  attachment: (uri: string) => Buffer | null;
  publicKey: KeyObject;
}

/** Checks every reference and the signature value; throws EBMS:0101 on the first thing that does not hold. */
export function verifySignature(doc: XmlDocument, signature: XmlElement, options: VerifyOptions): VerifiedReference[] {
  const signedInfo = onlyChild(signature, NS.ds, 'SignedInfo', failedAuthentication);
  const c14nMethod = onlyChild(signedInfo, NS.ds, 'CanonicalizationMethod', failedAuthentication);
  if (attribute(c14nMethod, 'Algorithm') !== ALGORITHM.exclusiveC14n) {
    throw failedAuthentication(`SignedInfo is canonicalised with ${attribute(c14nMethod, 'Algorithm')}, not exclusive C14N`);
  }
  const signatureMethod = onlyChild(signedInfo, NS.ds, 'SignatureMethod', failedAuthentication);
  if (attribute(signatureMethod, 'Algorithm') !== ALGORITHM.rsaSha256) {
    throw failedAuthentication(`the signature method is ${attribute(signatureMethod, 'Algorithm')}, not RSA-SHA256`);
  }
  const references = children(signedInfo, NS.ds, 'Reference');
  if (references.length === 0) throw failedAuthentication('the signature has no references');
  // each reference costs a look at every attribute and a canonicalisation: an AS4 message has 3
  if (references.length > MAX_REFERENCES) throw failedAuthentication(`the signature has ${references.length} references; at most ${MAX_REFERENCES} are read`);
  const verified = references.map((reference) => checkReference(doc, reference, options));
  const value = Buffer.from(textOf(onlyChild(signature, NS.ds, 'SignatureValue', failedAuthentication)).replace(/\s+/g, ''), 'base64');
  const ok = verify('sha256', exclusiveC14n(signedInfo, inclusivePrefixes(c14nMethod)), options.publicKey, value);
  if (!ok) throw failedAuthentication('the signature value does not verify with the sender certificate');
  return verified;
}

function inclusivePrefixes(transformOrMethod: XmlElement): string[] {
  const list = optionalChild(transformOrMethod, NS.ec, 'InclusiveNamespaces', failedAuthentication);
  const prefixes = list ? (attribute(list, 'PrefixList') ?? '') : '';
  return prefixes.split(/\s+/).filter((p) => p.length > 0);
}

function checkReference(doc: XmlDocument, reference: XmlElement, options: VerifyOptions): VerifiedReference {
  const uri = attribute(reference, 'URI');
  if (uri === null || uri === '') throw failedAuthentication('a reference has no URI (whole-document references are not used in AS4)');
  const transformsElement = optionalChild(reference, NS.ds, 'Transforms', failedAuthentication);
  const transforms = transformsElement ? children(transformsElement, NS.ds, 'Transform') : [];
  const algorithms = transforms.map((t) => attribute(t, 'Algorithm') ?? '');
  const digestMethod = attribute(onlyChild(reference, NS.ds, 'DigestMethod', failedAuthentication), 'Algorithm') ?? '';
  if (digestMethod !== ALGORITHM.sha256) throw failedAuthentication(`reference ${uri} is digested with ${digestMethod}, not SHA-256`);
  const digestValue = textOf(onlyChild(reference, NS.ds, 'DigestValue', failedAuthentication)).replace(/\s+/g, '');
  let octets: Buffer;
  let element: XmlElement | null = null;
  if (uri.startsWith('#')) {
    if (algorithms.length !== 1 || algorithms[0] !== ALGORITHM.exclusiveC14n) {
      throw failedAuthentication(`reference ${uri} must have exactly the exclusive C14N transform`);
    }
    const targets = elementsWithId(doc, uri.slice(1));
    if (targets.length !== 1) throw failedAuthentication(`reference ${uri} resolves to ${targets.length} elements; exactly one is required`);
    element = targets[0] as XmlElement;
    octets = exclusiveC14n(element, inclusivePrefixes(transforms[0] as XmlElement));
  } else if (uri.startsWith('cid:')) {
    if (algorithms.length !== 1 || algorithms[0] !== ALGORITHM.attachmentContentSignature) {
      throw failedAuthentication(`reference ${uri} must have exactly the Attachment-Content-Signature-Transform`);
    }
    const content = options.attachment(uri);
    if (content === null) throw failedAuthentication(`reference ${uri} names no attachment of the message`);
    octets = content;
  } else {
    throw failedAuthentication(`reference ${uri} is neither a same-document Id nor a cid: attachment`);
  }
  if (!sameDigest(sha256Base64(octets), digestValue)) throw failedAuthentication(`the digest of ${uri} does not match what was signed`);
  return { uri, transforms: algorithms, digestMethod, digestValue, element };
}

export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'base64');
  const y = Buffer.from(b, 'base64');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The ds:Reference children a signature carries, as data (for a receipt's NonRepudiationInformation). */
export function referencesOf(signature: XmlElement): SignedReference[] {
  const signedInfo = onlyChild(signature, NS.ds, 'SignedInfo', failedAuthentication);
  return children(signedInfo, NS.ds, 'Reference').map((reference) => {
    const transforms = optionalChild(reference, NS.ds, 'Transforms', failedAuthentication);
    return {
      uri: attribute(reference, 'URI') ?? '',
      transforms: transforms ? childElements(transforms).map((t) => attribute(t, 'Algorithm') ?? '') : [],
      digestMethod: attribute(onlyChild(reference, NS.ds, 'DigestMethod', failedAuthentication), 'Algorithm') ?? '',
      digestValue: textOf(onlyChild(reference, NS.ds, 'DigestValue', failedAuthentication)).replace(/\s+/g, ''),
    };
  });
}
