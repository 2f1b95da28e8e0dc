/**
 * The ebMS 3.0 Error signal (core 6.2, 6.7): what a receiver answers instead of a receipt. Written
 * unsigned (a refusal needs no proof of origin, and a failed authentication leaves nothing to sign
 * for); read from the response of the other side.
 */
import type { XmlElement } from '../../../../platform/xml/index.ts';
import { newUnsignedEnvelope } from './envelope-write.ts';
import { EBMS_ERRORS, type As4Error } from './errors.ts';
import { NS, SOAP_CONTENT_TYPE } from './names.ts';
import type { SoapResponse } from './receipt-build.ts';
import { attribute, children, optionalChild, textOf } from './xml-nodes.ts';

export function buildErrorSignal(error: As4Error, meta: { messageId: string; timestamp: Date }): SoapResponse {
  const envelope = newUnsignedEnvelope();
  const signal = envelope.messaging.ele(NS.eb, 'eb:SignalMessage');
  const info = signal.ele(NS.eb, 'eb:MessageInfo');
  info.ele(NS.eb, 'eb:Timestamp').txt(meta.timestamp.toISOString());
  info.ele(NS.eb, 'eb:MessageId').txt(meta.messageId);
  if (error.refToMessageId !== undefined) info.ele(NS.eb, 'eb:RefToMessageId').txt(error.refToMessageId);
  const kind = EBMS_ERRORS[error.code];
  const attrs: Record<string, string> = {
    category: kind.category,
    errorCode: error.code,
    origin: kind.origin,
    severity: 'failure',
    shortDescription: kind.shortDescription,
  };
  if (error.refToMessageId !== undefined) attrs.refToMessageInError = error.refToMessageId;
  signal.ele(NS.eb, 'eb:Error', attrs).ele(NS.eb, 'eb:Description', { 'xml:lang': 'en' }).txt(error.reason);
  return { contentType: `${SOAP_CONTENT_TYPE}; charset=UTF-8`, body: Buffer.from(envelope.end(), 'utf8') };
}

export interface EbmsErrorSignal {
  errorCode: string;
  shortDescription: string;
  severity: string;
  description: string;
  refToMessageInError: string | null;
}

/** The eb:Error elements of a SignalMessage (empty when it has none). */
export function readErrors(signal: XmlElement): EbmsErrorSignal[] {
  return children(signal, NS.eb, 'Error').map((error) => {
    const description = optionalChild(error, NS.eb, 'Description');
    return {
      errorCode: attribute(error, 'errorCode') ?? '',
      shortDescription: attribute(error, 'shortDescription') ?? '',
      severity: attribute(error, 'severity') ?? '',
      description: description ? textOf(description) : '',
      refToMessageInError: attribute(error, 'refToMessageInError'),
    };
  });
}
