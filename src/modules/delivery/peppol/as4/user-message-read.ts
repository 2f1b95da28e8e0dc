/**
 * Reads a received AS4 UserMessage: MIME, the hardened XML parse, the sender's certificate (its
 * trust decided by the caller), decryption of the attachment with our key, the signature over
 * eb:Messaging, the Body and the attachment, then the header fields from the very eb:Messaging
 * node the signature covers (a signed element moved elsewhere and an unsigned one put in its place
 * is refused), and the payload decompressed. Every refusal is an ebMS error.
 */
import type { KeyObject, X509Certificate } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { verifySignature, type SignedReference } from './dsig.ts';
import { As4Error, decompressionFailure, failedAuthentication, otherError } from './errors.ts';
import { readUserMessage as readHeader, type UserMessageHeader } from './messaging.ts';
import { cidNames, readMultipart } from './mime.ts';
import { NS, PEPPOL_AS4, SOAP_CONTENT_TYPE } from './names.ts';
import { decryptAttachments, signingCertificate } from './security-read.ts';
import { claimedMessageId, withEnvelope, withRef } from './soap-read.ts';
import { childElements, onlyChild } from './xml-nodes.ts';

export interface ReceivingKeys {
  ourKey: KeyObject;
  ourCert: X509Certificate;
  /** Decides whether the sender's certificate is a trusted Peppol AP certificate: a reason to refuse, or null. */
  trustSender: (cert: X509Certificate) => string | null | Promise<string | null>;
  /** the largest decompressed payload accepted */
  maxPayloadBytes?: number;
}

export interface ReceivedMessage {
  messaging: UserMessageHeader;
  /** the SBDH envelope, decompressed */
  sbdh: Buffer;
  /** the ds:Reference digests received: the receipt repeats them */
  references: SignedReference[];
  senderCert: X509Certificate;
}

export type ReadResult = { ok: true; message: ReceivedMessage } | { ok: false; error: As4Error };

const DEFAULT_MAX_PAYLOAD = 100 * 1024 * 1024;

export async function readUserMessage(contentType: string, body: Buffer, keys: ReceivingKeys): Promise<ReadResult> {
  let refToMessageId: string | undefined;
  try {
    const mime = await readMultipart(contentType, body);
    if (!mime.root.contentType.toLowerCase().startsWith(SOAP_CONTENT_TYPE)) throw otherError(`the root part is ${mime.root.contentType}, not ${SOAP_CONTENT_TYPE}`);
    const message = await withEnvelope(mime.root.body, async ({ doc, body: soapBody, messaging, security }) => {
      refToMessageId = claimedMessageId(messaging);
      if (childElements(soapBody).length > 0) throw otherError('the SOAP Body must be empty: a Peppol payload travels as the attachment');
      if (security === null) throw failedAuthentication('the message has no WS-Security header: it is neither signed nor encrypted');
      const signature = onlyChild(security, NS.ds, 'Signature', failedAuthentication);
      const senderCert = signingCertificate(doc, signature);
      const distrust = await keys.trustSender(senderCert);
      if (distrust !== null) throw failedAuthentication(`the sender's certificate is not trusted: ${distrust}`);
      const decrypted = decryptAttachments(doc, security, mime.attachments, keys.ourKey, keys.ourCert);
      const verified = verifySignature(doc, signature, {
        publicKey: senderCert.publicKey,
        attachment: (uri) => {
          const part = mime.attachments.find((a) => cidNames(uri, a.contentId));
          return part ? (decrypted.get(part) ?? null) : null;
        },
      });
      const signedNode = (node: typeof messaging) => verified.some((r) => r.element !== null && r.element.isSameNode(node));
      if (!signedNode(messaging)) throw failedAuthentication('the eb:Messaging header is not the element the signature covers');
      if (!signedNode(soapBody)) throw failedAuthentication('the SOAP Body is not the element the signature covers');
      const header = readHeader(messaging);
      if (header.parts.length !== 1) throw otherError(`a Peppol message carries exactly one payload; this one names ${header.parts.length}`);
      const part = header.parts[0] as UserMessageHeader['parts'][number];
      const attachment = mime.attachments.find((a) => cidNames(part.href, a.contentId));
      if (!attachment) throw otherError(`the payload ${part.href} is not an attachment of the message`);
      if (mime.attachments.length !== 1) throw otherError(`the message has ${mime.attachments.length} attachments; Peppol sends one`);
      if (!verified.some((r) => cidNames(r.uri, attachment.contentId))) throw failedAuthentication(`the payload ${part.href} is not signed`);
      const plain = decrypted.get(attachment);
      if (!plain) throw otherError(`the payload ${part.href} is not encrypted, as the Peppol AS4 profile requires`);
      if (part.compressionType !== PEPPOL_AS4.compressionType) throw otherError(`the payload's CompressionType is ${part.compressionType}, not ${PEPPOL_AS4.compressionType}`);
      let sbdh: Buffer;
      try {
        sbdh = gunzipSync(plain, { maxOutputLength: keys.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD });
      } catch (err) {
        throw decompressionFailure(`the payload does not decompress as gzip: ${err instanceof Error ? err.message : String(err)}`);
      }
      const references = verified.map(({ uri, transforms, digestMethod, digestValue }) => ({ uri, transforms, digestMethod, digestValue }));
      return { messaging: header, sbdh, references, senderCert };
    });
    return { ok: true, message };
  } catch (err) {
    return { ok: false, error: withRef(err, refToMessageId) };
  }
}
