// The webhook transport: where a webhook may go (SSRF guard), how it is signed, how it is sent.
export { type AddressClass, type AddressInfo, classifyAddress, inspectAddress } from '../../../platform/http-client/addresses.ts';
export { type AgentLimits, DEFAULT_MAX_SOCKETS, WebhookAgents } from './agents.ts';
export { RESPONSE_BODY_LIMIT, type SendOutcome, type SendResult, type WebhookRequest, sendWebhook } from './sender.ts';
export {
  type RawBody,
  SVC_TOLERANCE_SECONDS,
  type SvcVerification,
  legacySignature,
  svcSignature,
  verifyLegacySignature,
  verifySvcSignature,
} from './signatures.ts';
export { type ResolvedAddress, type Resolver, type TargetCheck, type TargetOptions, type TargetRefusal, checkTarget, systemResolver } from '../../../platform/http-client/target-guard.ts';
