/**
 * Idempotency keys (the `Idempotency-Key` header of the native API's creates and sends): one
 * stream per scope (an organisation) and key, so the event store's expected-revision append
 * decides which of two parallel requests with one key runs. The key itself is never stored, only
 * its SHA-256. Shapes are written out here, not imported: this file is a contract.
 */

/** A request took the key: it runs now. A later claim on the same stream is a takeover, a retry after a release, or a new use after expiry. */
export interface IdempotencyKeyClaimed {
  type: 'IdempotencyKeyClaimed';
  data: {
    key_hash: string;
    /** SHA-256 of the operation, its path parameters and its canonical body */
    fingerprint: string;
    /** the route's operationId */
    operation: string;
    /** what ids the request mints are derived from: a takeover reuses it, so a re-run names the same resource */
    seed: string;
    /** this claim; completion and release name it, so a claim that was taken over cannot complete */
    claim_id: string;
    request_id: string;
    claimed_at: string;
    /** the key may be used for another request from then on */
    expires_at: string;
  };
}

/** The answer the request gave; a repeat with the same key and body gets it again. */
export interface IdempotentRequestCompleted {
  type: 'IdempotentRequestCompleted';
  data: {
    claim_id: string;
    status: number;
    /** the JSON body as sent, without the fields an answer shows only once (secrets) */
    body: unknown;
    headers: Record<string, string>;
    /** body fields left out because they are shown once (an API key, a client secret) */
    withheld: string[];
    completed_at: string;
  };
}

/** The request failed unexpectedly (5xx): nothing is kept, a retry runs again (with the same seed). */
export interface IdempotencyKeyReleased {
  type: 'IdempotencyKeyReleased';
  data: { claim_id: string; reason: string; released_at: string };
}

export type IdempotencyEvent = IdempotencyKeyClaimed | IdempotentRequestCompleted | IdempotencyKeyReleased;

/** `scope` is an organisation id here; other APIs (SAPI-SK) name their own scopes. */
export const idempotencyStream = (scope: string, keyHash: string) => `idempotency-${scope}-${keyHash}`;
