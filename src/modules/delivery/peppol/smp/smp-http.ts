/**
 * One GET against an SMP: bounded in time (the whole exchange, body included) and in size.
 * 404 is an answer (the SMP does not have it); anything else that is not 2xx, a timeout or an
 * unreachable host is a failed lookup.
 */
import { readLimited } from '../../../../platform/http-client/read-limited.ts';
import { ParticipantLookupError } from '../participants.ts';
import { failed } from './smp-xml.ts';

/** An SMP answer is a few KB; a ServiceGroup listing hundreds of document types stays far below this. */
const MAX_SMP_RESPONSE_BYTES = 2 * 1024 * 1024;

export interface SmpHttpOptions {
  fetch: typeof fetch;
  timeoutMs: number;
}

type SmpResponse = { status: 'ok'; body: Uint8Array } | { status: 'not_found' };

export async function getSmpResource(url: string, options: SmpHttpOptions): Promise<SmpResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await options.fetch(url, { headers: { accept: 'application/xml, text/xml;q=0.9' }, signal });
    if (response.status === 404) {
      await response.body?.cancel();
      return { status: 'not_found' };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw failed(`SMP answered HTTP ${response.status} for ${url}`);
    }
    return { status: 'ok', body: await readLimited(response, MAX_SMP_RESPONSE_BYTES, () => failed(`SMP answer for ${url} is larger than ${MAX_SMP_RESPONSE_BYTES} bytes`)) };
  } catch (error) {
    if (signal.aborted) throw failed(`SMP did not answer within ${options.timeoutMs} ms: ${url}`);
    if (error instanceof ParticipantLookupError) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw failed(`SMP unreachable at ${url} (${error instanceof Error ? error.message : String(error)}${cause})`);
  }
}

