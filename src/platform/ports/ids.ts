import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { stableUuid } from '../../../commands/shared/stable-id.ts';

/** New identifiers, as a port: deciders never generate ids themselves. */
export interface Ids {
  next(): string;
}

/**
 * A request run under an Idempotency-Key mints its resource's id from the key's seed: the first
 * id the request takes (an invoice's, a customer's, a send's message id) is derived, every later
 * one (event ids, ids minted for other requests' group commits) stays random, so a re-run of the
 * request after a crash names the same resource and the write side refuses a second one.
 */
const requestSeed = new AsyncLocalStorage<{ seed: string; taken: boolean }>();

/** Runs `work` with the first id it takes derived from `seed` (see resourceIdOf). */
export function withResourceSeed<T>(seed: string, work: () => Promise<T>): Promise<T> {
  return requestSeed.run({ seed, taken: false }, work);
}

/** The id the first `next()` under withResourceSeed(seed) gives. */
export const resourceIdOf = (seed: string): string => stableUuid('idempotent-resource', seed);

/** `base`, except for the first id taken under withResourceSeed. */
function seededIds(base: Ids): Ids {
  return {
    next() {
      const scope = requestSeed.getStore();
      if (!scope || scope.taken) return base.next();
      scope.taken = true;
      return resourceIdOf(scope.seed);
    },
  };
}

export const randomIds: Ids = seededIds({ next: () => randomUUID() });
