/**
 * Checks the synchronous answer to a UserMessage we sent: an ebMS Error signal is a failed attempt
 * with its reason; a Receipt counts only when it is signed by the receiver's certificate (the one
 * we encrypted for), answers our eb:MessageId, and its NonRepudiationInformation repeats exactly
 * the digests we signed. Only then is the leg sent; the receipt's XML is kept as proof.
 */
import type { X509Certificate } from 'node:crypto';
import { sameDigest, verifySignature, type SignedReference } from './dsig.ts';
import { readErrors } from './error-signal.ts';
import { As4Error, failedAuthentication, otherError } from './errors.ts';
import { readMultipart } from './mime.ts';
import { NS } from './names.ts';
import { signingCertificate } from './security-read.ts';
import { withEnvelope } from './soap-read.ts';
import { attribute, children, onlyChild, optionalChild, textOf } from './xml-nodes.ts';

export interface ExpectedReceipt {
  /** the eb:MessageId we sent */
  messageId: string;
  /** the references buildUserMessage returned */
  references: SignedReference[];
  /** the receiving Access Point's certificate: the receipt must be signed with it */
  receiverCert: X509Certificate;
}

export type ReceiptResult =
  | { ok: true; receiptMessageId: string; receipt: string }
  | { ok: false; reason: string; errors?: { errorCode: string; shortDescription: string; description: string }[] };

export async function verifyReceipt(contentType: string, body: Buffer, expected: ExpectedReceipt): Promise<ReceiptResult> {
  try {
    const soap = contentType.toLowerCase().startsWith('multipart/') ? (await readMultipart(contentType, body)).root.body : body;
    return await withEnvelope(soap, ({ doc, body: soapBody, messaging, security }) => {
      const signal = onlyChild(messaging, NS.eb, 'SignalMessage');
      const errors = readErrors(signal);
      if (errors.length > 0) {
        const summary = errors.map((e) => `${e.errorCode} ${e.shortDescription}${e.description ? `: ${e.description}` : ''}`).join('; ');
        return { ok: false as const, reason: `the receiver answered with an ebMS error: ${summary}`, errors };
      }
      if (security === null) throw failedAuthentication('the receipt is not signed');
      const signature = onlyChild(security, NS.ds, 'Signature', failedAuthentication);
      const signer = signingCertificate(doc, signature);
      if (!signer.raw.equals(expected.receiverCert.raw)) throw failedAuthentication('the receipt is signed by another certificate than the receiver’s');
      const verified = verifySignature(doc, signature, { publicKey: signer.publicKey, attachment: () => null });
      const signed = (node: typeof messaging) => verified.some((r) => r.element !== null && r.element.isSameNode(node));
      if (!signed(messaging)) throw failedAuthentication('the receipt’s eb:Messaging is not the element its signature covers');
      if (!signed(soapBody)) throw failedAuthentication('the receipt’s Body is not the element its signature covers');

      const info = onlyChild(signal, NS.eb, 'MessageInfo');
      const ref = optionalChild(info, NS.eb, 'RefToMessageId');
      if (!ref || textOf(ref) !== expected.messageId) throw otherError(`the receipt answers ${ref ? textOf(ref) : 'no message'}, not ${expected.messageId}`);
      const receipt = onlyChild(signal, NS.eb, 'Receipt');
      const nri = onlyChild(receipt, NS.ebbp, 'NonRepudiationInformation');
      const acknowledged = children(nri, NS.ebbp, 'MessagePartNRInformation').map((part) => {
        const reference = onlyChild(part, NS.ds, 'Reference');
        return { uri: attribute(reference, 'URI') ?? '', digest: textOf(onlyChild(reference, NS.ds, 'DigestValue')).replace(/\s+/g, '') };
      });
      if (acknowledged.length !== expected.references.length) {
        throw otherError(`the receipt acknowledges ${acknowledged.length} references; we signed ${expected.references.length}`);
      }
      for (const sent of expected.references) {
        const match = acknowledged.filter((a) => a.uri === sent.uri);
        if (match.length !== 1 || !sameDigest((match[0] as { digest: string }).digest, sent.digestValue)) {
          throw otherError(`the receipt does not repeat the digest we signed for ${sent.uri}`);
        }
      }
      return { ok: true as const, receiptMessageId: textOf(onlyChild(info, NS.eb, 'MessageId')), receipt: soap.toString('utf8') };
    });
  } catch (err) {
    return { ok: false, reason: err instanceof As4Error ? err.message : `the receipt cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
}
