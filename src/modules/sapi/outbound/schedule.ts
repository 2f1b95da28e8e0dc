import { sapiDocumentDecider, type SapiDocumentState } from '../../../../commands/sapi/document.ts';
import { type AttemptFailure, type RetryPolicy } from '../../../../commands/invoices/delivery-retries.ts';
import { sapiDocumentStream } from '../../../../events/sapi-documents.ts';
import { systemMetadata } from '../../invoices/index.ts';
import { streamInTurn } from '../../../platform/handling/stream-in-turn.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import { derivedId } from '../../../platform/reactors/reactor.ts';
import type { Scheduled, ScheduleHandler } from '../../../platform/schedule/index.ts';
import { fsVerdictDeadline } from '../../../../commands/invoices/delivery-retries.ts';
import {
  BILLING_PROCESS_ID, boundedAttempt, buildTdd, documentTypeFor, PeppolRefusedError, PeppolRejectedError, PeppolTransportError, type PeppolReceipt,
  SK_TAX_DATA_DOCUMENT_TYPE_ID, TAX_AUTHORITY, TAX_REPORTING_PROCESS_ID, TddBuildError, wrapInSbdh,
} from '../../delivery/index.ts';
import type { SapiDeps } from '../deps.ts';
import { documentWritten, loadDocument } from './held.ts';

export const SAPI_PEPPOL_ATTEMPT = 'sapi-peppol-attempt';
export const SAPI_FS_FILING = 'sapi-fs-filing';
export const SAPI_FS_VERDICT = 'sapi-fs-verdict';

/** Peppol attempts queue per receiver, as native ones do; FS work per document (FS is everyone's one receiver). */
export const sapiPeppolAttempt = (documentId: string, receiver: string, due: Date, ref: string): Scheduled => ({
  kind: SAPI_PEPPOL_ATTEMPT, key: documentId, lane: `peppol:${receiver}`, due_at: due, ref,
});
export const sapiFsFiling = (documentId: string, due: Date, ref: string): Scheduled => ({ kind: SAPI_FS_FILING, key: documentId, lane: `fs:${documentId}`, due_at: due, ref });
export const sapiFsVerdict = (documentId: string, due: Date, ref: string): Scheduled => ({ kind: SAPI_FS_VERDICT, key: documentId, lane: `fs:${documentId}`, due_at: due, ref });

interface Options {
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  deadlineMs: number;
}

/** Records a step's outcomes on the document's stream, decided on the state it read and then on what each left (held for the next step). */
function recorder(deps: SapiDeps, documentId: string, component: string, ref: string, read: { state: SapiDocumentState; revision: number }) {
  const on = streamInTurn(deps, sapiDocumentStream(documentId), sapiDocumentDecider, read, { metadata: systemMetadata(component, ref || undefined), retry: { onVersionConflict: 20 } });
  return async (command: Parameters<typeof on>[0]) => {
    const handled = await on(command);
    documentWritten(deps.store, documentId, handled);
    return handled;
  };
}

const early = (due: string | null | undefined, now: Date) => (due && Date.parse(due) > now.getTime() ? new Date(due) : null);
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function peppolFailure(error: unknown): AttemptFailure {
  if (error instanceof PeppolRejectedError) return { kind: 'rejected', findings: error.findings };
  if (error instanceof PeppolRefusedError) return { kind: 'refused' };
  return { kind: 'transport' };
}

/**
 * The SAPI-SK steps, each made when its row is due (src/platform/schedule), by the rules and
 * attempts native delivery has: the Peppol leg (PROCESSING, then the payload as received in an
 * SBDH whose instance id is the message id fixed at acceptance; SENT, or FAILED on a refusal or
 * when the attempts run out; the document was validated at the send and is not validated again),
 * the C2 filing once SENT (its TDD's UUID derived from the SENT event, so a repeated step files the
 * same TDD), and FS's verdict (asked until it comes, or the deadline fails the leg).
 */
export function sapiScheduleHandlers(deps: SapiDeps, options: Options): ScheduleHandler[] {
  const at = () => deps.clock.now().toISOString();
  const peppol: ScheduleHandler = {
    kind: SAPI_PEPPOL_ATTEMPT,
    async run(work, signal) {
      const { state, revision, accepted } = await loadDocument(deps.store, work.key);
      if (!state || !accepted || state.status === 'SENT' || state.status === 'FAILED') return null;
      const later = early(state.peppol_next_attempt_at, deps.clock.now());
      if (later) return later;
      const on = recorder(deps, work.key, 'sapi-peppol-delivery', work.ref, { state, revision });
      // decided on a held state, which may be behind: what the append proved current says whether a send is still to make
      const started = await on({ type: 'StartSapiProcessing', at: at() });
      if (started.state?.status !== 'PROCESSING') return null;
      const notYet = early(started.state.peppol_next_attempt_at, deps.clock.now());
      if (notYet) return notYet;
      const m = accepted.metadata;
      const documentTypeId = documentTypeFor(accepted.document_root);
      let envelope: string;
      try {
        envelope = wrapInSbdh({
          sender: m.sender_participant_id, receiver: m.receiver_participant_id, documentTypeId, processId: BILLING_PROCESS_ID,
          instanceId: accepted.peppol_message_id, createdAt: deps.clock.now(), countryC1: accepted.country_c1, document: accepted.payload,
          mlsTo: deps.ourSpis, mlsType: 'ALWAYS_SEND',
        });
      } catch (error) {
        await on({ type: 'RecordSapiFailed', reason: `not sent: the envelope cannot carry it (${reasonOf(error)})`, findings: [], rejected_by_receiver: false, at: at() });
        return null;
      }
      let receipt: PeppolReceipt;
      try {
        receipt = await boundedAttempt((s) => deps.network.send({
          message_id: accepted.peppol_message_id, sender_participant_id: m.sender_participant_id, receiver_participant_id: m.receiver_participant_id,
          document_type_id: documentTypeId, process_id: BILLING_PROCESS_ID, envelope,
        }, s), { signal, timeoutMs: options.attemptTimeoutMs, timedOut: () => new PeppolTransportError(`no answer from the receiving Access Point within ${options.attemptTimeoutMs} ms`) });
      } catch (error) {
        if (signal.aborted) throw error; // the service stops: not a failed attempt; made again
        const handled = await on({ type: 'RecordSapiAttemptFailed', leg: 'peppol', reason: reasonOf(error), failure: peppolFailure(error), policy: options.policy, at: at() });
        const after = handled.state;
        return after?.status === 'PROCESSING' && after.peppol_next_attempt_at ? new Date(after.peppol_next_attempt_at) : null;
      }
      afterEffect('sapi-peppol-send', accepted.peppol_message_id); // sent, not yet recorded
      await on({ type: 'RecordSapiSent', as4: receipt.as4 ?? null, at: at() });
      return null;
    },
  };

  const filing: ScheduleHandler = {
    kind: SAPI_FS_FILING,
    async run(work, signal) {
      const { state, revision, accepted } = await loadDocument(deps.store, work.key);
      if (!state || !accepted || state.fs.status !== 'NOT_SUBMITTED') return null;
      const later = early(state.fs.next_attempt_at, deps.clock.now());
      if (later) return later;
      const on = recorder(deps, work.key, 'sapi-fs-filing', work.ref, { state, revision });
      const tddUuid = derivedId(work.ref || work.key, 'sapi-fs-filing');
      let tdd: string;
      try {
        tdd = buildTdd(accepted.payload, {
          uuid: tddUuid, issuedAt: deps.clock.now(), reporterRole: 'C2', reportingParty: accepted.metadata.sender_participant_id,
          receivingParty: deps.config.delivery.fsParticipantId, reportersRepresentative: deps.config.delivery.serviceProviderId, taxAuthority: TAX_AUTHORITY,
        });
      } catch (error) {
        if (!(error instanceof TddBuildError)) throw error;
        await on({ type: 'RecordSapiFsFailed', reason: `no tax data document can be built: ${error.message}`, at: at() });
        return null;
      }
      const reporter = accepted.metadata.sender_participant_id;
      const fsParticipant = deps.config.delivery.fsParticipantId;
      try {
        // to corner 5 as a Peppol message, asking for its MLS (the verdict: fs-mls.ts)
        const envelope = wrapInSbdh({
          sender: reporter, receiver: fsParticipant, documentTypeId: SK_TAX_DATA_DOCUMENT_TYPE_ID, processId: TAX_REPORTING_PROCESS_ID, instanceId: tddUuid,
          createdAt: deps.clock.now(), countryC1: 'SK', document: tdd, written: true, mlsTo: deps.ourSpis, mlsType: 'ALWAYS_SEND',
        });
        await boundedAttempt((s) => deps.network.send({
          message_id: tddUuid, sender_participant_id: reporter, receiver_participant_id: fsParticipant, document_type_id: SK_TAX_DATA_DOCUMENT_TYPE_ID,
          process_id: TAX_REPORTING_PROCESS_ID, envelope,
        }, s), { signal, timeoutMs: options.attemptTimeoutMs, timedOut: () => new PeppolTransportError(`no answer from the Access Point of FS within ${options.attemptTimeoutMs} ms`) });
      } catch (error) {
        if (signal.aborted) throw error;
        const handled = await on({ type: 'RecordSapiAttemptFailed', leg: 'fs', reason: reasonOf(error), failure: peppolFailure(error), policy: options.policy, at: at() });
        const after = handled.state?.fs;
        return after?.status === 'NOT_SUBMITTED' && after.next_attempt_at ? new Date(after.next_attempt_at) : null;
      }
      afterEffect('sapi-fs-submit', tddUuid); // filed, not yet recorded
      await on({ type: 'RecordSapiFsSubmitted', fs_submission_id: tddUuid, tdd_uuid: tddUuid, at: at() });
      return null;
    },
  };

  // the verdict is corner 5's MLS (fs-mls.ts); this keeps its deadline
  const verdicts: ScheduleHandler = {
    kind: SAPI_FS_VERDICT,
    async run(work) {
      const { state, revision } = await loadDocument(deps.store, work.key);
      const fs = state?.fs;
      if (!state || fs?.status !== 'SUBMITTED' || !fs.submission_id) return null;
      // documents filed before the filing time was kept run their deadline from their last change
      const deadline = new Date(fsVerdictDeadline(fs.submitted_at ?? state.updated_at, options.deadlineMs));
      if (deadline.getTime() > deps.clock.now().getTime()) return deadline;
      const on = recorder(deps, work.key, 'sapi-fs-verdicts', work.ref, { state, revision });
      await on({ type: 'RecordSapiFsVerdictOverdue', fs_submission_id: fs.submission_id, deadline_ms: options.deadlineMs, at: deps.clock.now().toISOString() });
      return null;
    },
  };
  return [peppol, filing, verdicts];
}
