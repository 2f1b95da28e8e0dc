import { guardedRequest, type GuardedFailure } from '../../../../../platform/http-client/guarded-request.ts';
import { systemResolver, type Resolver } from '../../../../../platform/http-client/target-guard.ts';

/** One request to an OCSP responder or a CRL distribution point. */
export interface RevocationRequest {
  url: string;
  method: 'GET' | 'POST';
  body?: Uint8Array;
  contentType?: string;
  accept: string;
}

/** Fetches a revocation answer's bytes, or throws RevocationFetchError (the responder is unreachable for our purposes). */
export type RevocationFetch = (request: RevocationRequest) => Promise<Uint8Array>;

export class RevocationFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RevocationFetchError';
  }
}

export interface BoundedFetchOptions {
  /** the whole exchange: resolve, connect, send, answer */
  timeoutMs: number;
  /** a larger answer is cut off and refused */
  maxBytes: number;
  /** admit 127.0.0.0/8 and ::1 (tests' local responders); never in production */
  allowLoopback: boolean;
  /** DNS as a port (tests); the system resolver by default */
  resolve?: Resolver;
}

/** Words for a failure: general, never the host, the address or the URL (a peer's certificate named them). */
const WORDS: Record<GuardedFailure, string> = {
  refused_target: 'refused',
  redirect: 'answered a redirect, which is not followed',
  timeout: 'gave no answer in time',
  too_large: 'sent an answer larger than allowed',
  connection: 'unreachable (the connection failed)',
};

/**
 * Revocation sources are fetched with the shared SSRF guard (src/platform/http-client): the URL
 * comes from a certificate a peer sent, so only public addresses are called (loopback when allowed
 * for tests), the address checked is the address connected to, no redirect is followed, and the
 * exchange is bounded in time and size.
 */
export function boundedFetch(options: BoundedFetchOptions): RevocationFetch {
  const guard = { allowLoopback: options.allowLoopback, resolve: options.resolve ?? systemResolver };
  return async (request) => {
    const answer = await guardedRequest({
      url: request.url,
      method: request.method,
      headers: { accept: request.accept, ...(request.body ? { 'content-type': request.contentType ?? 'application/octet-stream' } : {}) },
      ...(request.body ? { body: request.body } : {}),
      timeoutMs: options.timeoutMs,
      maxBodyBytes: options.maxBytes,
      guard,
    });
    if (!answer.ok) throw new RevocationFetchError(answer.failure === 'refused_target' ? `refused: ${answer.reason}` : WORDS[answer.failure]);
    if (answer.status !== 200) throw new RevocationFetchError(`answered HTTP ${answer.status}`);
    return answer.body;
  };
}
