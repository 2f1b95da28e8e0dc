/**
 * The names an AS4 message is made of: namespaces, algorithm URIs and the fixed values of the
 * Peppol AS4 profile 2.0.3 (on CEF eDelivery AS4 1.14, ebMS 3.0 core, WS-Security 1.1.1 with the
 * SwA profile 1.1). Values only; no logic.
 */

export const NS = {
  soap: 'http://www.w3.org/2003/05/soap-envelope',
  eb: 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/',
  ebbp: 'http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0',
  wsse: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
  wsse11: 'http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd',
  wsu: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ec: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  xenc: 'http://www.w3.org/2001/04/xmlenc#',
  xenc11: 'http://www.w3.org/2009/xmlenc11#',
} as const;

export const ALGORITHM = {
  exclusiveC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  rsaOaep: 'http://www.w3.org/2009/xmlenc11#rsa-oaep',
  mgf1Sha256: 'http://www.w3.org/2009/xmlenc11#mgf1sha256',
  aes128Gcm: 'http://www.w3.org/2009/xmlenc11#aes128-gcm',
  /** SwA 1.1: the digest covers the attachment's content octets (MIME headers excluded). */
  attachmentContentSignature: 'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform',
  /** SwA 1.1: the attachment's content is replaced by its ciphertext, the MIME headers stay. */
  attachmentContentOnly: 'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Only',
  attachmentCiphertext: 'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Ciphertext-Transform',
} as const;

export const TOKEN = {
  x509v3: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3',
  base64Binary: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary',
  encryptedKey: 'http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#EncryptedKey',
  subjectKeyIdentifier: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier',
} as const;

/** Peppol AS4 profile 2.0.3, section 5 (and ebMS 3.0 defaults it keeps). */
export const PEPPOL_AS4 = {
  partyIdType: 'urn:fdc:peppol.eu:2017:identifiers:ap',
  agreement: 'urn:fdc:peppol.eu:2017:agreements:tia:ap_provider',
  initiatorRole: 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator',
  responderRole: 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/responder',
  compressionType: 'application/gzip',
  payloadMimeType: 'application/xml',
} as const;

/** The SOAP 1.2 media type of the root part (RFC 3902). */
export const SOAP_CONTENT_TYPE = 'application/soap+xml';
