import { sapiDocumentDecider, type SapiDocumentCommand, type SapiDocumentState } from '../../../../commands/sapi/document.ts';
import { sapiDocumentStream, type SapiDocumentAccepted, type SapiDocumentSent, type SapiFsSubmitted } from '../../../../events/sapi-documents.ts';
import { systemMetadata } from '../../invoices/index.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';
import { streamInTurn } from '../../../platform/handling/stream-in-turn.ts';
import { FsTransportError } from '../../delivery/index.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../delivery/index.ts';
import { wrapInSbdh } from '../../delivery/index.ts';
import { PeppolRefusedError, PeppolRejectedError } from '../../delivery/index.ts';
import { withAttempts, type AttemptPolicy } from '../../delivery/index.ts';
import { awaitFsVerdict } from '../../delivery/index.ts';
import { TAX_AUTHORITY } from '../../delivery/index.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import { defineReactor, derivedId, type Reactor } from '../../../platform/reactors/reactor.ts';
import { buildTdd, TddBuildError } from '../../delivery/index.ts';
import type { SapiDeps } from '../deps.ts';

const PEPPOL = 'sapi-peppol-delivery';
const FS_FILING = 'sapi-fs-filing';
const FS_VERDICTS = 'sapi-fs-verdicts';

/** A document's stream: its state and the accepted event (the payload lives only there). */
async function load(deps: Pick<SapiDeps, 'store'>, documentId: string) {
  const folded = await readAndFold(deps.store, sapiDocumentStream(documentId), sapiDocumentDecider);
  const first = folded.events[0];
  const accepted = first?.type === 'SapiDocumentAccepted' ? (first.data as SapiDocumentAccepted['data']) : null;
  return { state: folded.state, revision: folded.revision, accepted };
}

/**
 * Records a reaction's outcomes on the document's stream, each decided on the state the reaction
 * read or its last outcome left (`read`: none for a reaction that did not read), and again on a
 * newer state after a lost race.
 */
function recorder(deps: SapiDeps, documentId: string, component: string, event: { id: string }, read?: { state: SapiDocumentState; revision: number }) {
  const metadata = systemMetadata(component, event.id);
  const retry = { onVersionConflict: 20 };
  if (read) return streamInTurn(deps, sapiDocumentStream(documentId), sapiDocumentDecider, read, { metadata, retry });
  return (command: SapiDocumentCommand) => handleCommand(deps, sapiDocumentStream(documentId), sapiDocumentDecider, command, { metadata, expected: { retry } });
}

/**
 * The Peppol leg of an accepted document: PROCESSING, then the payload as received in an SBDH
 * whose instance identifier is the message id fixed at acceptance, pushed to the network with
 * the native delivery's attempts and backoff. SENT when the receiving Access Point took it;
 * FAILED on a refusal (at once) or when the attempts run out. The document was validated at the
 * send and is not validated again. A reaction run again after a crash sends the same message id,
 * which the receiving Access Point drops as a duplicate.
 */
export function sapiPeppolReactor(deps: SapiDeps, policy: AttemptPolicy): Reactor {
  return defineReactor<SapiDocumentAccepted>({
    name: PEPPOL,
    handles: ['SapiDocumentAccepted'],
    concurrency: 8,
    async react(event, signal) {
      const { document_id } = event.data;
      const { state, revision, accepted } = await load(deps, document_id);
      if (!state || !accepted || state.status === 'SENT' || state.status === 'FAILED') return;
      const on = recorder(deps, document_id, PEPPOL, event, { state, revision });
      const at = () => deps.clock.now().toISOString();
      await on({ type: 'StartSapiProcessing', at: at() });
      const m = accepted.metadata;
      const documentTypeId = documentTypeFor(accepted.document_root);
      let envelope: string;
      try {
        envelope = wrapInSbdh({
          sender: m.sender_participant_id, receiver: m.receiver_participant_id, documentTypeId, processId: BILLING_PROCESS_ID,
          instanceId: accepted.peppol_message_id, createdAt: deps.clock.now(), countryC1: accepted.country_c1, document: accepted.payload,
        });
      } catch (error) {
        await on({ type: 'RecordSapiFailed', reason: `not sent: the envelope cannot carry it (${(error as Error).message})`, findings: [], rejected_by_receiver: false, at: at() });
        return;
      }
      const outcome = await withAttempts(
        policy,
        state.peppol_attempts,
        async () => {
          const receipt = await deps.network.send({
            message_id: accepted.peppol_message_id, sender_participant_id: m.sender_participant_id, receiver_participant_id: m.receiver_participant_id,
            document_type_id: documentTypeId, process_id: BILLING_PROCESS_ID, envelope,
          });
          afterEffect('sapi-peppol-send', accepted.peppol_message_id); // sent, not yet recorded
          return receipt;
        },
        (error) => (error instanceof PeppolRefusedError ? 'permanent' : 'retry'),
        {
          now: () => deps.clock.now(),
          failed: async (reason, retryAt) => {
            await on({ type: 'RecordSapiAttemptFailed', leg: 'peppol', reason, retry_at: retryAt?.toISOString() ?? null, at: at() });
          },
        },
        signal,
      );
      if (outcome.ok) {
        await on({ type: 'RecordSapiSent', at: at() });
      } else {
        const rejected = outcome.permanent && outcome.error instanceof PeppolRejectedError;
        await on({
          type: 'RecordSapiFailed', reason: outcome.permanent ? outcome.reason : `gave up after ${policy.maxAttempts} attempts: ${outcome.reason}`,
          findings: rejected ? (outcome.error as PeppolRejectedError).findings : [], rejected_by_receiver: rejected, at: at(),
        });
      }
    },
  });
}

/**
 * The FS leg (reporter role C2, the seller reports) once the document is SENT: the tax data
 * document built from the payload, filed with the native filing's attempts. Its UUID derives
 * from the event, so a repeated reaction files the same TDD, which FS recognises. A document no
 * TDD can be built from fails the leg at once (fs.status FAILED with the reason).
 */
export function sapiFsFilingReactor(deps: SapiDeps, policy: AttemptPolicy): Reactor {
  return defineReactor<SapiDocumentSent>({
    name: FS_FILING,
    handles: ['SapiDocumentSent'],
    concurrency: 8,
    async react(event, signal) {
      const { document_id } = event.data;
      const { state, revision, accepted } = await load(deps, document_id);
      if (!state || !accepted || state.fs.status !== 'NOT_SUBMITTED') return;
      const on = recorder(deps, document_id, FS_FILING, event, { state, revision });
      const at = () => deps.clock.now().toISOString();
      const tddUuid = derivedId(event.id, FS_FILING);
      let tdd: string;
      try {
        tdd = buildTdd(accepted.payload, {
          uuid: tddUuid, issuedAt: deps.clock.now(), reporterRole: 'C2', reportingParty: accepted.metadata.sender_participant_id,
          receivingParty: deps.config.delivery.fsParticipantId, reportersRepresentative: deps.config.delivery.serviceProviderId, taxAuthority: TAX_AUTHORITY,
        });
      } catch (error) {
        if (!(error instanceof TddBuildError)) throw error;
        await on({ type: 'RecordSapiFsFailed', reason: `no tax data document can be built: ${error.message}`, at: at() });
        return;
      }
      const outcome = await withAttempts(
        policy,
        state.fs.attempts,
        async () => {
          const submitted = await deps.fs.submit({ tdd, tdd_uuid: tddUuid, reporter_role: 'C2', invoice_id: document_id });
          afterEffect('sapi-fs-submit', tddUuid); // filed, not yet recorded
          return submitted;
        },
        (error) => (error instanceof FsTransportError ? 'retry' : 'permanent'),
        {
          now: () => deps.clock.now(),
          failed: async (reason, retryAt) => {
            await on({ type: 'RecordSapiAttemptFailed', leg: 'fs', reason, retry_at: retryAt?.toISOString() ?? null, at: at() });
          },
        },
        signal,
      );
      if (outcome.ok) await on({ type: 'RecordSapiFsSubmitted', fs_submission_id: outcome.value.submission_id, tdd_uuid: tddUuid, at: at() });
      else await on({ type: 'RecordSapiFsFailed', reason: outcome.permanent ? outcome.reason : `gave up after ${policy.maxAttempts} attempts: ${outcome.reason}`, at: at() });
    },
  });
}

/** Waits for FS's verdict on each filed TDD and records it, as the native verdicts do (never failed for FS being slow). */
export function sapiFsVerdictReactor(deps: SapiDeps, pollMs: number): Reactor {
  return defineReactor<SapiFsSubmitted>({
    name: FS_VERDICTS,
    handles: ['SapiFsSubmitted'],
    concurrency: 32,
    async react(event, signal) {
      const submitted = event.data;
      const verdict = await awaitFsVerdict(deps.fs, submitted.fs_submission_id, { pollMs, log: deps.log, signal });
      await recorder(deps, submitted.document_id, FS_VERDICTS, event)({
        type: 'RecordSapiFsVerdict', fs_submission_id: verdict.submission_id, outcome: verdict.outcome, tdd_uuid: verdict.tdd_uuid,
        mls_response_code: verdict.mls_response_code, reasons: verdict.reasons, at: verdict.decided_at,
      });
    },
  });
}
