/**
 * Builds the AS4 UserMessage that carries one SBDH envelope to another Peppol Access Point: the
 * envelope gzip-compressed as the one attachment, signed (eb:Messaging, Body, attachment) and then
 * the attachment encrypted for the receiver; sent as MIME multipart/related.
 */
import type { KeyObject, X509Certificate } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { encryptContent, newContentKey, wrapKey } from './attachment-crypto.ts';
import { commonName } from './certificates.ts';
import type { SignedReference } from './dsig.ts';
import { writeEncryption, type EncryptionKeyInfo } from './encryption-write.ts';
import { newEnvelope, newId, writeToken } from './envelope-write.ts';
import { writeUserMessage, type UserMessageInput } from './messaging.ts';
import { cidOf, newContentId, writeMultipart } from './mime.ts';
import { completeSignature, newPlan, writeSignature } from './signature-write.ts';

export interface SendingKeys {
  signingKey: KeyObject;
  signingCert: X509Certificate;
  /** the receiving Access Point's certificate, from its SMP entry or static endpoint */
  receiverCert: X509Certificate;
  /** how the EncryptedKey names the receiver's certificate; default a BinarySecurityToken */
  encryptionKeyInfo?: EncryptionKeyInfo;
}

export interface BuiltMessage {
  /** the HTTP Content-Type: multipart/related with its boundary */
  contentType: string;
  body: Buffer;
  /** the ds:Reference digests signed: the receipt's NonRepudiationInformation must repeat them */
  references: SignedReference[];
}

/** The attachment travels as octets: gzip, then AES-GCM ciphertext. */
const ATTACHMENT_CONTENT_TYPE = 'application/octet-stream';

export function buildUserMessage(input: UserMessageInput & { sbdh: Buffer | string }, keys: SendingKeys): BuiltMessage {
  return assembleUserMessage(input, gzipSync(typeof input.sbdh === 'string' ? Buffer.from(input.sbdh, 'utf8') : input.sbdh), keys);
}

/**
 * The message around an already compressed payload. `spell` may rewrite the envelope's text before
 * it is signed (prefixes, Id values): tests use it to write as other implementations do.
 */
export function assembleUserMessage(input: UserMessageInput, compressed: Buffer, keys: SendingKeys, spell: (xml: string) => string = (xml) => xml): BuiltMessage {
  const attachmentId = newContentId('payload');
  const uri = cidOf(attachmentId);
  const contentKey = newContentKey();

  const envelope = newEnvelope();
  const tokenId = newId('X509');
  writeToken(envelope.security, keys.signingCert, tokenId);
  writeEncryption(
    envelope.security,
    keys.receiverCert,
    { uri, mimeType: ATTACHMENT_CONTENT_TYPE, wrappedKey: wrapKey(keys.receiverCert, contentKey) },
    keys.encryptionKeyInfo ?? 'token',
  );
  const plan = newPlan([envelope.ids.messaging, envelope.ids.body], [{ uri, content: compressed }], tokenId);
  const signatureId = newId('SIG');
  writeSignature(envelope.security, plan, signatureId);
  writeUserMessage(envelope.messaging, input, { from: commonName(keys.signingCert), to: commonName(keys.receiverCert) }, uri);
  const { xml, references } = completeSignature(spell(envelope.end()), plan, keys.signingKey, signatureId);

  const multipart = writeMultipart(xml, newContentId('soap'), [
    { contentId: attachmentId, contentType: ATTACHMENT_CONTENT_TYPE, body: encryptContent(contentKey, compressed) },
  ]);
  return { ...multipart, references };
}
