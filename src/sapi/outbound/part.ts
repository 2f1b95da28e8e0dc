import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';

/** SAPI-SK: send, status and the outbound Peppol and FS legs. */
export function sapiOutboundPart(deps: SapiDeps): SapiPart {
  void deps;
  return {};
}
