/**
 * One GET against an SMP, through the platform's guarded request (src/platform/http-client/
 * guarded-request.ts): the SMP's address comes from DNS, which an attacker may control, so no
 * private, loopback or link-local address (unless configured for tests), the address checked is the
 * address connected to, no redirect followed, the body and the time bounded. 404 is an answer (the
 * SMP does not have it); anything else that is not 2xx is a failed lookup. Errors name the
 * participant only: the URL, the address and the status met go to the log, never to a client.
 */
import type { GuardedAnswer } from '../../../../platform/http-client/guarded-request.ts';
import { guardedRequest } from '../../../../platform/http-client/guarded-request.ts';
import type { TargetOptions } from '../../../../platform/http-client/target-guard.ts';
import { failed } from './smp-xml.ts';

/** An SMP answer is a few KB; a ServiceGroup listing hundreds of document types stays far below this. */
export const MAX_SMP_RESPONSE_BYTES = 2 * 1024 * 1024;

export interface SmpHttpOptions {
  guard: TargetOptions;
  /** per request, the whole exchange */
  timeoutMs: number;
  maxBytes?: number;
  /** where the detail of a failure goes (URL, address, status): our logs, not the client */
  logDetail?: (detail: string) => void;
  /** for tests: the request function */
  request?: typeof guardedRequest;
}

type SmpResponse = { status: 'ok'; body: Uint8Array } | { status: 'not_found' };

const WORDS: Record<Exclude<GuardedAnswer, { ok: true }>['failure'], string> = {
  refused_target: 'is at an address that may not be called',
  redirect: 'answered with a redirect, which is not followed',
  timeout: 'did not answer in time',
  too_large: 'sent an answer larger than allowed',
  connection: 'could not be reached',
};

/** `about` names the participant in errors: `participant 0088:123`. */
export async function getSmpResource(url: string, about: string, options: SmpHttpOptions): Promise<SmpResponse> {
  const answer = await (options.request ?? guardedRequest)({
    url,
    headers: { accept: 'application/xml, text/xml;q=0.9' },
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBytes ?? MAX_SMP_RESPONSE_BYTES,
    guard: options.guard,
  });
  if (!answer.ok) {
    options.logDetail?.(`SMP request for ${about} failed (${answer.failure}): ${answer.detail}; ${url}`);
    throw failed(`the SMP of ${about} ${WORDS[answer.failure]}`);
  }
  if (answer.status === 404) return { status: 'not_found' };
  if (answer.status < 200 || answer.status > 299) {
    options.logDetail?.(`SMP answered HTTP ${answer.status} for ${about}: ${url}`);
    throw failed(`the SMP of ${about} answered with an error`);
  }
  return { status: 'ok', body: answer.body };
}
