/**
 * The signed eb:Receipt a receiving Access Point answers with (AS4 profile 3.2, ebbp signals 2.0):
 * its NonRepudiationInformation repeats each ds:Reference of the message received, so the sender
 * holds proof of exactly what was acknowledged. Signed over eb:Messaging and the Body, not encrypted.
 */
import type { KeyObject, X509Certificate } from 'node:crypto';
import type { SignedReference } from './dsig.ts';
import { newEnvelope, newId, writeToken } from './envelope-write.ts';
import { NS, SOAP_CONTENT_TYPE } from './names.ts';
import { completeSignature, newPlan, writeSignature } from './signature-write.ts';

export interface ReceiptInput {
  /** eb:MessageId of the receipt itself */
  messageId: string;
  timestamp: Date;
  /** eb:MessageId of the UserMessage acknowledged */
  refToMessageId: string;
  /** the ds:Reference digests of the UserMessage as received */
  references: SignedReference[];
}

export interface SigningKeys {
  signingKey: KeyObject;
  signingCert: X509Certificate;
}

export interface SoapResponse {
  contentType: string;
  body: Buffer;
}

export function buildReceipt(input: ReceiptInput, keys: SigningKeys): SoapResponse {
  const envelope = newEnvelope();
  const tokenId = newId('X509');
  writeToken(envelope.security, keys.signingCert, tokenId);
  const plan = newPlan([envelope.ids.messaging, envelope.ids.body], [], tokenId);
  const signatureId = newId('SIG');
  writeSignature(envelope.security, plan, signatureId);

  const signal = envelope.messaging.ele(NS.eb, 'eb:SignalMessage');
  const info = signal.ele(NS.eb, 'eb:MessageInfo');
  info.ele(NS.eb, 'eb:Timestamp').txt(input.timestamp.toISOString());
  info.ele(NS.eb, 'eb:MessageId').txt(input.messageId);
  info.ele(NS.eb, 'eb:RefToMessageId').txt(input.refToMessageId);
  const nri = signal.ele(NS.eb, 'eb:Receipt').ele(NS.ebbp, 'ebbp:NonRepudiationInformation');
  for (const reference of input.references) {
    const ref = nri.ele(NS.ebbp, 'ebbp:MessagePartNRInformation').ele(NS.ds, 'ds:Reference', { URI: reference.uri });
    const transforms = ref.ele(NS.ds, 'ds:Transforms');
    for (const algorithm of reference.transforms) transforms.ele(NS.ds, 'ds:Transform', { Algorithm: algorithm });
    ref.ele(NS.ds, 'ds:DigestMethod', { Algorithm: reference.digestMethod });
    ref.ele(NS.ds, 'ds:DigestValue').txt(reference.digestValue);
  }
  const { xml } = completeSignature(envelope.end(), plan, keys.signingKey, signatureId);
  return { contentType: `${SOAP_CONTENT_TYPE}; charset=UTF-8`, body: Buffer.from(xml, 'utf8') };
}
