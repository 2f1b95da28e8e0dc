import type { BucketStore } from './bucket-store.ts';
import type { InvalidCredentialGuard } from './invalid-credential-guard.ts';

/** Rate-limit buckets (in process, or in Redis so instances share them) and the failure guard (API keys, sign-in). */
export interface Limits {
  store: BucketStore;
  guard: InvalidCredentialGuard;
}
