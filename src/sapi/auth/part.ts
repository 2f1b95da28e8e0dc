import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';

/** SAPI-SK: credentials, tokens and the gate. */
export function sapiAuthPart(deps: SapiDeps): SapiPart {
  void deps;
  return {};
}
