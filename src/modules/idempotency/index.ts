// The idempotency module's door: what other modules, the front doors and the composition root may use of it.
export { type Outcome, runIdempotently } from './idempotency.ts';
export { idempotent, type Recover, secretShownOnce } from './idempotent-route.ts';
export { firstWrite } from './recovery.ts';
