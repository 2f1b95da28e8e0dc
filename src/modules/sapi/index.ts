// The sapi module's door: what other modules, the front doors and the composition root may use of it.
export { sapiCallerResolver, type SapiClientGate } from './auth/caller.ts';
export { sapiFsMlsMatcher } from './outbound/fs-mls.ts';
export { sapiMlsMatcher } from './outbound/mls.ts';
