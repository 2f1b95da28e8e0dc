/**
 * Writing a WS-Security signature into an envelope the XML writer builds: the ds:Signature is
 * written with marker text where the digests and the signature value go, then `completeSignature`
 * canonicalises the referenced elements of the written document (exclusive C14N), puts the
 * digests in, canonicalises SignedInfo as it now stands, signs it and puts the value in. Markers
 * carry a random nonce and must each occur exactly once, so no value of the message can be taken
 * for one.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import { parseTrusted, type XmlElement } from '../../../../platform/xml/index.ts';
import type { XmlElementWriter } from '../../../../platform/xml/write.ts';
import { exclusiveC14n, sha256Base64, signRsaSha256, type SignedReference } from './dsig.ts';
import { ALGORITHM, NS, TOKEN } from './names.ts';
import { elementsWithId, onlyChild } from './xml-nodes.ts';

export interface SignaturePlan {
  /** wsu:Id values of the elements to sign (eb:Messaging, the Body) */
  elementIds: string[];
  /** attachments to sign: their cid: URI and content octets */
  attachments: { uri: string; content: Buffer }[];
  /** wsu:Id of the BinarySecurityToken that carries the signing certificate */
  tokenId: string;
  nonce: string;
}

export const newPlan = (elementIds: string[], attachments: SignaturePlan['attachments'], tokenId: string): SignaturePlan => ({
  elementIds,
  attachments,
  tokenId,
  nonce: randomBytes(12).toString('hex'),
});

const digestMarker = (plan: SignaturePlan, i: number) => `digest-${plan.nonce}-${i}`;
const valueMarker = (plan: SignaturePlan) => `signature-${plan.nonce}`;

const ds = (parent: XmlElementWriter, name: string, attrs?: Record<string, string>) => parent.ele(NS.ds, `ds:${name}`, attrs);

/** Writes ds:Signature (markers for digests and value) as the last child of wsse:Security. */
export function writeSignature(security: XmlElementWriter, plan: SignaturePlan, signatureId: string): void {
  const signature = ds(security, 'Signature', { Id: signatureId });
  const signedInfo = ds(signature, 'SignedInfo');
  ds(signedInfo, 'CanonicalizationMethod', { Algorithm: ALGORITHM.exclusiveC14n });
  ds(signedInfo, 'SignatureMethod', { Algorithm: ALGORITHM.rsaSha256 });
  const uris = [...plan.elementIds.map((id) => `#${id}`), ...plan.attachments.map((a) => a.uri)];
  uris.forEach((uri, i) => {
    const reference = ds(signedInfo, 'Reference', { URI: uri });
    const transform = uri.startsWith('#') ? ALGORITHM.exclusiveC14n : ALGORITHM.attachmentContentSignature;
    ds(ds(reference, 'Transforms'), 'Transform', { Algorithm: transform });
    ds(reference, 'DigestMethod', { Algorithm: ALGORITHM.sha256 });
    ds(reference, 'DigestValue').txt(digestMarker(plan, i));
  });
  ds(signature, 'SignatureValue').txt(valueMarker(plan));
  const str = ds(signature, 'KeyInfo').ele(NS.wsse, 'wsse:SecurityTokenReference');
  str.ele(NS.wsse, 'wsse:Reference', { URI: `#${plan.tokenId}`, ValueType: TOKEN.x509v3 });
}

function replaceOnce(text: string, marker: string, value: string): string {
  const at = text.indexOf(marker);
  if (at < 0 || text.indexOf(marker, at + 1) >= 0) throw new Error('signature writer: a marker is not there exactly once');
  return text.slice(0, at) + value + text.slice(at + marker.length);
}

/** Fills the digests and the signature value of a written envelope; returns it and the references signed. */
export function completeSignature(written: string, plan: SignaturePlan, key: KeyObject, signatureId: string): { xml: string; references: SignedReference[] } {
  const digests: string[] = [];
  const first = parseTrusted(written);
  try {
    for (const id of plan.elementIds) {
      const found = elementsWithId(first, id);
      if (found.length !== 1) throw new Error(`signature writer: ${found.length} elements have the Id ${id}`);
      digests.push(sha256Base64(exclusiveC14n(found[0] as XmlElement)));
    }
  } finally {
    first.dispose();
  }
  for (const attachment of plan.attachments) digests.push(sha256Base64(attachment.content));
  let xml = written;
  digests.forEach((digest, i) => (xml = replaceOnce(xml, digestMarker(plan, i), digest)));
  const second = parseTrusted(xml);
  let value: string;
  try {
    const [signature] = elementsWithId(second, signatureId);
    if (!signature) throw new Error('signature writer: the signature element is gone');
    value = signRsaSha256(exclusiveC14n(onlyChild(signature, NS.ds, 'SignedInfo')), key);
  } finally {
    second.dispose();
  }
  xml = replaceOnce(xml, valueMarker(plan), value);
  const references: SignedReference[] = [...plan.elementIds.map((id) => `#${id}`), ...plan.attachments.map((a) => a.uri)].map((uri, i) => ({
    uri,
    transforms: [uri.startsWith('#') ? ALGORITHM.exclusiveC14n : ALGORITHM.attachmentContentSignature],
    digestMethod: ALGORITHM.sha256,
    digestValue: digests[i] as string,
  }));
  return { xml, references };
}
