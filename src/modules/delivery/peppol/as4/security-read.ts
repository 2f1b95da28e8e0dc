/**
 * Reading the wsse:Security header of a received message: the signing certificate (a
 * BinarySecurityToken the signature's KeyInfo references, or an X509Certificate inline), and the
 * attachment decrypted with our key. The EncryptedKey may name our certificate by a token, by
 * issuer and serial, or not at all; when it names another certificate, or unwrapping or the
 * AES-GCM tag fails, the answer is EBMS:0102.
 */
import type { KeyObject, X509Certificate } from 'node:crypto';
import type { XmlDocument, XmlElement } from '../../../../platform/xml/index.ts';
import { decryptContent, unwrapKey } from './attachment-crypto.ts';
import { certificateFromDer, issuerSerialNames, tokenBytes } from './certificates.ts';
import { failedAuthentication, failedDecryption } from './errors.ts';
import { cidNames, type MimePart } from './mime.ts';
import { ALGORITHM, NS, TOKEN } from './names.ts';
import { attribute, children, elementsWithId, isElement, onlyChild, optionalChild, textOf } from './xml-nodes.ts';

/** The certificate a KeyInfo names: by a wsse:Reference to a BinarySecurityToken, or inline X509Data. */
/** The DER octets of the certificate a KeyInfo names: by a BinarySecurityToken reference, or inline. */
function certificateBytesOf(doc: XmlDocument, keyInfo: XmlElement, refuse: (reason: string) => Error): Buffer {
  const str = optionalChild(keyInfo, NS.wsse, 'SecurityTokenReference', failedAuthentication);
  if (str) {
    const reference = onlyChild(str, NS.wsse, 'Reference', failedAuthentication);
    const uri = attribute(reference, 'URI') ?? '';
    if (!uri.startsWith('#')) throw refuse(`the token reference ${uri} is not a same-document Id`);
    const tokens = elementsWithId(doc, uri.slice(1));
    const token = tokens[0];
    if (tokens.length !== 1 || !token || !isElement(token, NS.wsse, 'BinarySecurityToken')) {
      throw refuse(`the token reference ${uri} does not name exactly one BinarySecurityToken`);
    }
    const valueType = attribute(token, 'ValueType');
    if (valueType !== TOKEN.x509v3) throw refuse(`the BinarySecurityToken is of type ${valueType}, not X509v3`);
    return tokenBytes(textOf(token));
  }
  const data = optionalChild(keyInfo, NS.ds, 'X509Data', failedAuthentication);
  const inline = data ? optionalChild(data, NS.ds, 'X509Certificate', failedAuthentication) : null;
  if (!inline) throw refuse('the signature names its certificate neither by a BinarySecurityToken nor inline');
  return tokenBytes(textOf(inline));
}

function certificateOf(doc: XmlDocument, keyInfo: XmlElement, refuse: (reason: string) => Error): X509Certificate {
  const cert = certificateFromDer(certificateBytesOf(doc, keyInfo, refuse));
  if (!cert) throw refuse('the named certificate is not a certificate');
  return cert;
}

export function signingCertificate(doc: XmlDocument, signature: XmlElement): X509Certificate {
  const keyInfo = onlyChild(signature, NS.ds, 'KeyInfo', failedAuthentication);
  return certificateOf(doc, keyInfo, failedAuthentication);
}

/** Whether the EncryptedKey's KeyInfo names `ours` (absent KeyInfo: the receiver is implied). */
function namesOurCertificate(doc: XmlDocument, keyInfo: XmlElement | null, ours: X509Certificate): boolean {
  if (keyInfo === null) return true;
  const str = optionalChild(keyInfo, NS.wsse, 'SecurityTokenReference', failedDecryption);
  const holder = str ?? keyInfo;
  const data = optionalChild(holder, NS.ds, 'X509Data', failedDecryption);
  const serial = data ? optionalChild(data, NS.ds, 'X509IssuerSerial', failedDecryption) : null;
  if (serial) {
    onlyChild(serial, NS.ds, 'X509IssuerName', failedDecryption);
    return issuerSerialNames(ours, textOf(onlyChild(serial, NS.ds, 'X509SerialNumber', failedDecryption)));
  }
  if (str && optionalChild(str, NS.wsse, 'Reference', failedDecryption)) {
    // our own certificate is known: its octets are compared, nothing is parsed
    return certificateBytesOf(doc, keyInfo, failedDecryption).equals(ours.raw);
  }
  if (data && optionalChild(data, NS.ds, 'X509Certificate', failedDecryption)) {
    return certificateBytesOf(doc, keyInfo, failedDecryption).equals(ours.raw);
  }
  // a KeyIdentifier (SKI, thumbprint) is not checked here: a wrong key fails to unwrap anyway
  return true;
}

function contentKey(doc: XmlDocument, encryptedKey: XmlElement, ourKey: KeyObject, ourCert: X509Certificate): Buffer {
  const method = onlyChild(encryptedKey, NS.xenc, 'EncryptionMethod', failedDecryption);
  if (attribute(method, 'Algorithm') !== ALGORITHM.rsaOaep) throw failedDecryption(`the key transport is ${attribute(method, 'Algorithm')}, not RSA-OAEP (XML Encryption 1.1)`);
  const digest = optionalChild(method, NS.ds, 'DigestMethod', failedDecryption);
  const mgf = optionalChild(method, NS.xenc11, 'MGF', failedDecryption);
  if ((digest && attribute(digest, 'Algorithm')) !== ALGORITHM.sha256 || (mgf && attribute(mgf, 'Algorithm')) !== ALGORITHM.mgf1Sha256) {
    throw failedDecryption('RSA-OAEP must use the SHA-256 digest and MGF1 with SHA-256');
  }
  if (!namesOurCertificate(doc, optionalChild(encryptedKey, NS.ds, 'KeyInfo', failedDecryption), ourCert)) {
    throw failedDecryption('the content key is encrypted for another certificate than ours');
  }
  const wrapped = Buffer.from(textOf(onlyChild(onlyChild(encryptedKey, NS.xenc, 'CipherData', failedDecryption), NS.xenc, 'CipherValue', failedDecryption)).replace(/\s+/g, ''), 'base64');
  try {
    return unwrapKey(ourKey, wrapped);
  } catch {
    throw failedDecryption('the content key does not decrypt with our private key');
  }
}

/**
 * Decrypts every attachment an EncryptedData (Attachment-Content-Only, AES-128-GCM) names; returns
 * the decrypted content by attachment. Attachments no EncryptedData names are left out.
 */
export function decryptAttachments(doc: XmlDocument, security: XmlElement, attachments: MimePart[], ourKey: KeyObject, ourCert: X509Certificate): Map<MimePart, Buffer> {
  const keys = children(security, NS.xenc, 'EncryptedKey');
  const data = children(security, NS.xenc, 'EncryptedData');
  if (keys.length !== 1) throw failedDecryption(`the security header must have exactly one EncryptedKey; it has ${keys.length}`);
  const key = contentKey(doc, keys[0] as XmlElement, ourKey, ourCert);
  const out = new Map<MimePart, Buffer>();
  for (const encrypted of data) {
    if (attribute(encrypted, 'Type') !== ALGORITHM.attachmentContentOnly) throw failedDecryption(`EncryptedData of type ${attribute(encrypted, 'Type')} is not an attachment's content`);
    const method = onlyChild(encrypted, NS.xenc, 'EncryptionMethod', failedDecryption);
    if (attribute(method, 'Algorithm') !== ALGORITHM.aes128Gcm) throw failedDecryption(`the content is encrypted with ${attribute(method, 'Algorithm')}, not AES-128-GCM`);
    const reference = onlyChild(onlyChild(encrypted, NS.xenc, 'CipherData', failedDecryption), NS.xenc, 'CipherReference', failedDecryption);
    const uri = attribute(reference, 'URI') ?? '';
    const part = attachments.find((a) => cidNames(uri, a.contentId));
    if (!part) throw failedDecryption(`EncryptedData names ${uri}, which is no attachment of the message`);
    if (out.has(part)) throw failedDecryption(`the attachment ${uri} is encrypted twice`);
    try {
      out.set(part, decryptContent(key, part.body));
    } catch {
      throw failedDecryption(`the attachment ${uri} does not decrypt with the content key (wrong key, or altered)`);
    }
  }
  return out;
}
