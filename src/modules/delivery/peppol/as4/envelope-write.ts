/**
 * The SOAP 1.2 envelope every AS4 message of ours is written in: a header with wsse:Security
 * (mustUnderstand) and eb:Messaging (mustUnderstand, a wsu:Id to sign it by), and a Body with a
 * wsu:Id. Ids are random per message, so two messages never share one. The SOAP prefix is
 * lower-case (`env`): a canonicaliser that sorts prefixes case-insensitively (xml-crypto uses
 * localeCompare) would otherwise order `S12` and `eb` unlike C14N and fail our signature.
 */
import { randomUUID, type X509Certificate } from 'node:crypto';
import { newXmlDocument, type XmlElementWriter } from '../../../../platform/xml/write.ts';
import { tokenOf } from './certificates.ts';
import { NS, TOKEN } from './names.ts';

export interface EnvelopeWriter {
  /** null for an unsigned message (an error signal) */
  security: XmlElementWriter | null;
  messaging: XmlElementWriter;
  ids: { messaging: string; body: string };
  /** Adds the empty Body (after the header) and gives the text. */
  end(): string;
}

export const newId = (kind: string) => `${kind}-${randomUUID()}`;

export function newEnvelope(): EnvelopeWriter & { security: XmlElementWriter } {
  return envelope(true) as EnvelopeWriter & { security: XmlElementWriter };
}

/** Without wsse:Security: for an ebMS error signal. */
export const newUnsignedEnvelope = (): EnvelopeWriter => envelope(false);

function envelope(secured: boolean): EnvelopeWriter {
  const doc = newXmlDocument(NS.soap, 'env:Envelope', { 'xmlns:wsu': NS.wsu });
  const header = doc.root.ele(NS.soap, 'env:Header');
  const security = secured ? header.ele(NS.wsse, 'wsse:Security', { 'env:mustUnderstand': 'true' }) : null;
  const ids = { messaging: newId('eb'), body: newId('body') };
  const messaging = header.ele(NS.eb, 'eb:Messaging', { 'env:mustUnderstand': 'true', 'wsu:Id': ids.messaging });
  return {
    security,
    messaging,
    ids,
    end() {
      doc.root.ele(NS.soap, 'env:Body', { 'wsu:Id': ids.body });
      return doc.end();
    },
  };
}

/** A BinarySecurityToken carrying a certificate (X509v3, base64 DER). */
export function writeToken(security: XmlElementWriter, cert: X509Certificate, id: string): void {
  security.ele(NS.wsse, 'wsse:BinarySecurityToken', { EncodingType: TOKEN.base64Binary, ValueType: TOKEN.x509v3, 'wsu:Id': id }).txt(tokenOf(cert));
}
