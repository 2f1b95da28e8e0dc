/**
 * The encryption half of the security header for one attachment (SwA Attachment-Content-Only):
 * xenc:EncryptedKey with the content key wrapped for the receiver (RSA-OAEP, SHA-256 and MGF1
 * SHA-256), naming the receiver's certificate by a BinarySecurityToken (phase4's default) or by
 * issuer and serial number, and xenc:EncryptedData whose CipherReference is the attachment.
 */
import type { X509Certificate } from 'node:crypto';
import type { XmlElementWriter } from '../../../../platform/xml/write.ts';
import { issuerName, serialDecimal } from './certificates.ts';
import { writeToken, newId } from './envelope-write.ts';
import { ALGORITHM, NS, TOKEN } from './names.ts';

export type EncryptionKeyInfo = 'token' | 'issuer-serial';

export interface EncryptedAttachment {
  uri: string;
  /** the MIME type of the attachment part (the ciphertext keeps the part's headers) */
  mimeType: string;
  wrappedKey: Buffer;
}

export function writeEncryption(security: XmlElementWriter, receiver: X509Certificate, attachment: EncryptedAttachment, keyInfo: EncryptionKeyInfo): void {
  const keyId = newId('EK');
  const dataId = newId('ED');
  // the receiver's token before the key that names it: a receiver reads the header in order
  const tokenId = keyInfo === 'token' ? newId('X509') : null;
  if (tokenId !== null) writeToken(security, receiver, tokenId);
  const key = security.ele(NS.xenc, 'xenc:EncryptedKey', { Id: keyId });
  const method = key.ele(NS.xenc, 'xenc:EncryptionMethod', { Algorithm: ALGORITHM.rsaOaep });
  method.ele(NS.ds, 'ds:DigestMethod', { Algorithm: ALGORITHM.sha256 });
  method.ele(NS.xenc11, 'xenc11:MGF', { Algorithm: ALGORITHM.mgf1Sha256 });
  const str = key.ele(NS.ds, 'ds:KeyInfo').ele(NS.wsse, 'wsse:SecurityTokenReference');
  if (tokenId !== null) {
    str.ele(NS.wsse, 'wsse:Reference', { URI: `#${tokenId}`, ValueType: TOKEN.x509v3 });
  } else {
    const serial = str.ele(NS.ds, 'ds:X509Data').ele(NS.ds, 'ds:X509IssuerSerial');
    serial.ele(NS.ds, 'ds:X509IssuerName').txt(issuerName(receiver));
    serial.ele(NS.ds, 'ds:X509SerialNumber').txt(serialDecimal(receiver));
  }
  key.ele(NS.xenc, 'xenc:CipherData').ele(NS.xenc, 'xenc:CipherValue').txt(attachment.wrappedKey.toString('base64'));
  key.ele(NS.xenc, 'xenc:ReferenceList').ele(NS.xenc, 'xenc:DataReference', { URI: `#${dataId}` });

  const data = security.ele(NS.xenc, 'xenc:EncryptedData', { Id: dataId, MimeType: attachment.mimeType, Type: ALGORITHM.attachmentContentOnly });
  data.ele(NS.xenc, 'xenc:EncryptionMethod', { Algorithm: ALGORITHM.aes128Gcm });
  data
    .ele(NS.ds, 'ds:KeyInfo')
    .ele(NS.wsse, 'wsse:SecurityTokenReference', { 'xmlns:wsse11': NS.wsse11, 'wsse11:TokenType': TOKEN.encryptedKey })
    .ele(NS.wsse, 'wsse:Reference', { URI: `#${keyId}` });
  const reference = data.ele(NS.xenc, 'xenc:CipherData').ele(NS.xenc, 'xenc:CipherReference', { URI: attachment.uri });
  reference.ele(NS.xenc, 'xenc:Transforms').ele(NS.ds, 'ds:Transform', { Algorithm: ALGORITHM.attachmentCiphertext });
}
