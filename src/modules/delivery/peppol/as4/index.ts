// The AS4 codec (Peppol AS4 profile 2.0.3 on CEF eDelivery AS4 1.14): messages built and read as
// pure functions. The HTTP route and the network adapter use only what is exported here.
export { buildUserMessage, type BuiltMessage, type SendingKeys } from './user-message-build.ts';
export { readUserMessage, type ReadResult, type ReceivedMessage, type ReceivingKeys } from './user-message-read.ts';
export { buildReceipt, type ReceiptInput, type SigningKeys, type SoapResponse } from './receipt-build.ts';
export { verifyReceipt, type ExpectedReceipt, type ReceiptResult } from './receipt-verify.ts';
export { buildErrorSignal, type EbmsErrorSignal } from './error-signal.ts';
export { As4Error, EBMS_ERRORS, type EbmsErrorCode } from './errors.ts';
export type { UserMessageInput, UserMessageHeader, SchemedId } from './messaging.ts';
export type { SignedReference } from './dsig.ts';
export type { EncryptionKeyInfo } from './encryption-write.ts';
export { commonName } from './certificates.ts';
export { ebmsMessageId, isEbmsMessageId } from './message-id.ts';
