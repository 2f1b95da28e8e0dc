import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';

/** SAPI-SK: the inbox: list, detail and acknowledge. */
export function sapiInboxPart(deps: SapiDeps): SapiPart {
  void deps;
  return {};
}
