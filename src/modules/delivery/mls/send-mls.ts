import type { RetryPolicy } from '../../../../commands/invoices/delivery-retries.ts';
import { mlsIssuedDecider } from '../../../../commands/mls/issued.ts';
import type { MlsIssued } from '../../../../events/mls.ts';
import type { Core } from '../../../platform/core.ts';
import { streamInTurn } from '../../../platform/handling/stream-in-turn.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';
import { heldMls } from './held.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import type { Scheduled, ScheduleHandler } from '../../../platform/schedule/index.ts';
import { MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID } from '../peppol/identifiers.ts';
import { PeppolRefusedError, PeppolRejectedError, PeppolTransportError, type PeppolNetwork } from '../peppol/peppol-network.ts';
import { wrapInSbdh } from '../peppol/sbdh.ts';
import { bounded } from '../schedule/bounded.ts';
import { systemMetadata } from '../../invoices/index.ts';

export const MLS_SEND = 'mls-send';

/** One row per answered document (key: its MLS stream), laned per receiving Access Point. */
const mlsSend = (streamId: string, to: string, due: Date, ref: string): Scheduled => ({ kind: MLS_SEND, key: streamId, lane: `mls:${to}`, due_at: due, ref });

/** An MLS owed: its first attempt is due now. The reaction only schedules; the attempt reads the stream. */
export function mlsSendReactor(deps: { schedule(rows: Scheduled[]): Promise<void>; now(): Date }): Reactor {
  return defineReactor<MlsIssued>({
    name: 'mls-send',
    handles: ['MlsIssued'],
    concurrency: 8,
    async react(event) {
      const mls = event.data.mls;
      if (mls) await deps.schedule([mlsSend(event.streamId, mls.to, deps.now(), event.id)]);
    },
  });
}

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & {
  network: PeppolNetwork;
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  /**
   * how long after the answer its MLS first goes, by the document type answered: 0 over AS4; the
   * sandbox's receiving Access Point takes PEPPOL_SANDBOX_DELIVERY_DELAY_MS and its corner 5
   * FS_SANDBOX_DELAY_MS, as read when the row is looked at (a restart with another delay applies then)
   */
  firstDelayMs: (answeredDocumentTypeId: string) => number;
};

/** While the first attempt is not due, the row is looked at again at least this often. */
const LOOK_AGAIN_MS = 1_000;

/**
 * One attempt to send an owed MLS (MLS 1.1, chapter 3: wrapped in an SBDH, sent like any Peppol
 * message to its receiver, found through the SMP). The SBDH instance identifier is the MLS id, so
 * a retry is the same message. When MLS_TO has nobody registered, the sending Access Point's own SPID
 * gets it instead; a receiver nobody serves ends it (recorded); a transport failure is tried again by
 * the delivery policy.
 */
export function mlsAttempts(deps: Deps): ScheduleHandler {
  return {
    kind: MLS_SEND,
    async run(work, signal) {
      const held = heldMls(deps.store);
      const { state, revision } = held.get(work.key) ?? await readAndFold(deps.store, work.key, mlsIssuedDecider);
      if (state.status !== 'issued' || state.sending !== 'pending' || !state.issued.mls) return null;
      const now = deps.clock.now().getTime();
      const first = Date.parse(state.issued.issued_at) + deps.firstDelayMs(state.issued.document_type_id);
      if (state.attempts === 0 && first > now) return new Date(Math.min(first, now + LOOK_AGAIN_MS));
      const due = state.next_attempt_at ? new Date(state.next_attempt_at) : null;
      if (due && due.getTime() > now) return due;
      const { mls } = state.issued;
      // the outcome is decided on the stream as read above (read again only if someone wrote it meanwhile)
      const inTurn = streamInTurn(deps, work.key, mlsIssuedDecider, { state, revision }, { metadata: systemMetadata('mls-send', work.ref || undefined), retry: { onVersionConflict: 3 } });
      const record = async (command: Parameters<typeof inTurn>[0]) => {
        const handled = await inTurn(command);
        if (handled.state.status === 'issued' && handled.state.sending === 'pending') held.advance(work.key, { state: handled.state, revision: handled.version });
        else held.drop(work.key);
        return handled;
      };
      const at = () => deps.clock.now().toISOString();
      const send = async (to: string, document: string) => {
        const envelope = wrapInSbdh({
          sender: mls.from, receiver: to, documentTypeId: MLS_DOCUMENT_TYPE_ID, processId: MLS_PROCESS_ID, instanceId: mls.mls_id,
          // the MLS as our writer produced it (mls/document/build.ts), kept in its event
          createdAt: deps.clock.now(), countryC1: 'SK', document, written: true,
        });
        await bounded((s) => deps.network.send({
          message_id: mls.mls_id, sender_participant_id: mls.from, receiver_participant_id: to, document_type_id: MLS_DOCUMENT_TYPE_ID, process_id: MLS_PROCESS_ID, envelope,
        }, s), { signal, timeoutMs: deps.attemptTimeoutMs, timedOut: () => new PeppolTransportError(`no answer from the Access Point of ${to} within ${deps.attemptTimeoutMs} ms`) });
        return to;
      };
      let sentTo: string;
      try {
        try {
          sentTo = await send(mls.to, mls.document);
        } catch (error) {
          // nobody registered at the envelope's MLS_TO (not a refusal by its Access Point): MLS_TO is ignored, the sending Access Point's SPID gets it (4.1)
          if (!mls.fallback || !(error instanceof PeppolRefusedError) || error instanceof PeppolRejectedError || signal.aborted) throw error;
          sentTo = await send(mls.fallback.to, mls.fallback.document);
        }
      } catch (error) {
        if (signal.aborted) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        const handled = await record({ type: 'RecordMlsSendFailed', reason, permanent: error instanceof PeppolRefusedError, policy: deps.policy, at: at() });
        const after = handled.state;
        return after.status === 'issued' && after.sending === 'pending' && after.next_attempt_at ? new Date(after.next_attempt_at) : null;
      }
      await record({ type: 'RecordMlsSent', to: sentTo, at: at() });
      return null;
    },
  };
}
