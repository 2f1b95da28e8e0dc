/**
 * The Peppol network for PEPPOL_NETWORK=as4 (issue 38, item 1): our Access Point as corner 2.
 * Each message is discovered (static table, else SML + SMP), wrapped in a signed and encrypted AS4
 * UserMessage, pushed over HTTP, and counts as sent only once the receiver's signed Receipt is
 * verified against the certificate we encrypted for, with the digests we signed.
 *
 * The eb:MessageId is derived from the SBDH instance id, so every retry of a document carries the
 * same one and the receiver can answer its original receipt instead of taking a second copy.
 */
import type { X509Certificate } from 'node:crypto';
import type { Logger } from 'pino';
import { guardedRequest, type GuardedAnswer } from '../../../platform/http-client/guarded-request.ts';
import { readLimited } from '../../../platform/http-client/read-limited.ts';
import type { TargetOptions } from '../../../platform/http-client/target-guard.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { buildUserMessage, commonName, ebmsMessageId, verifyReceipt } from './as4/index.ts';
import { PeppolRejectedError, PeppolTransportError, type OutboundPeppolMessage, type PeppolNetwork, type PeppolReceipt } from './peppol-network.ts';
import type { ApIdentity } from './pki/index.ts';
import type { PeppolDiscovery } from './smp/index.ts';

export interface As4NetworkDeps {
  identity: Pick<ApIdentity, 'certificate' | 'privateKey' | 'commonName'>;
  discovery: Pick<PeppolDiscovery, 'endpointFor'>;
  /** the SSRF guard for endpoints learned from an SMP */
  guard: TargetOptions;
  clock: Clock;
  log: Pick<Logger, 'warn'>;
  /** the whole exchange with the receiving Access Point (default 60 s) */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** A receipt or an error signal is a few kilobytes; anything far larger is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** ebMS 3.0 (5.2.2.1): an RFC 2822 msg-id without the angle brackets; ours stable per document. */
export function as4MessageIdOf(sbdhInstanceId: string, ourName: string): string {
  return ebmsMessageId(sbdhInstanceId, ourName);
}

type Answer = { status: number; contentType: string; body: Buffer };

export function as4PeppolNetwork(deps: As4NetworkDeps): PeppolNetwork {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ourName = deps.identity.commonName ?? 'ap';

  /** Calls an SMP-learned endpoint through the guard; a static one as configured (bounded, no redirect). */
  async function post(url: string, guarded: boolean, contentType: string, body: Buffer, participant: string, signal?: AbortSignal): Promise<Answer> {
    const cannot = (detail: string) => {
      deps.log.warn({ participant, detail }, 'AS4 send failed');
      return new PeppolTransportError(`the Access Point of participant ${participant} could not be reached`);
    };
    if (guarded) {
      const answer: GuardedAnswer = await guardedRequest({
        url, method: 'POST', headers: { 'content-type': contentType }, body, timeoutMs, maxBodyBytes: MAX_ANSWER_BYTES, guard: deps.guard,
      });
      if (!answer.ok) throw cannot(`${answer.reason} (${answer.detail})`);
      return { status: answer.status, contentType: String(answer.headers['content-type'] ?? ''), body: answer.body };
    }
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(body), redirect: 'manual', signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) });
      const read = await readLimited(response, MAX_ANSWER_BYTES, () => new Error('an answer larger than allowed'));
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: Buffer.from(read) };
    } catch (error) {
      throw cannot(error instanceof Error ? error.message : String(error));
    }
  }

  async function judge(answer: Answer, expected: { messageId: string; references: ReturnType<typeof buildUserMessage>['references']; receiverCert: X509Certificate }, participant: string) {
    if (answer.status >= 300 && answer.status < 400) throw new PeppolTransportError(`the Access Point of participant ${participant} answered with a redirect, which is not followed`);
    const verdict = await verifyReceipt(answer.contentType, answer.body, expected);
    if (verdict.ok) return verdict;
    if (verdict.errors && verdict.errors.length > 0) {
      // the receiving Access Point's own refusal, whatever the HTTP status (phase4 answers 200, a
      // SOAP Fault comes with 500, others use 4xx): it will answer the same to the same message
      throw new PeppolRejectedError(`the Access Point of participant ${participant} refused the message: ${verdict.reason}`, verdict.errors.map((e) => ({ rule: e.errorCode, message: e.description || e.shortDescription })));
    }
    // no receipt we can accept (an HTTP error, a wrong or unsigned receipt): a failed attempt; the
    // retry carries the same MessageId, so the receiver answers its original receipt
    deps.log.warn({ participant, status: answer.status, reason: verdict.reason }, 'AS4 answer is not a valid receipt');
    throw new PeppolTransportError(`the Access Point of participant ${participant} gave no valid receipt (HTTP ${answer.status}: ${verdict.reason})`);
  }

  return {
    async ready() {},
    // the attempt's signal (the scheduled worker's time limit) stops a static entry's request; a guarded one ends at its own bound
    async send(message: OutboundPeppolMessage, signal?: AbortSignal): Promise<PeppolReceipt> {
      const participant = message.receiver_participant_id;
      const endpoint = await deps.discovery.endpointFor({ participantId: participant, documentTypeId: message.document_type_id, processId: message.process_id });
      const messageId = as4MessageIdOf(message.message_id, ourName);
      const built = buildUserMessage({
        messageId, timestamp: deps.clock.now(), conversationId: message.message_id,
        processId: message.process_id, documentTypeId: message.document_type_id,
        originalSender: message.sender_participant_id, finalRecipient: participant, sbdh: message.envelope,
      }, { signingKey: deps.identity.privateKey, signingCert: deps.identity.certificate, receiverCert: endpoint.certificate });
      const answer = await post(endpoint.url, endpoint.guarded, built.contentType, built.body, participant, signal);
      const verdict = await judge(answer, { messageId, references: built.references, receiverCert: endpoint.certificate }, participant);
      const as4 = { message_id: messageId, receipt: verdict.receipt, receiving_ap: commonName(endpoint.certificate) };
      return { message_id: message.message_id, received_at: deps.clock.now().toISOString(), as4 };
    },
  };
}
