import type { AttemptFailure, RetryPolicy } from '../../../../commands/invoices/delivery-retries.ts';
import { invoiceInTurn, systemMetadata, buildUbl } from '../../invoices/index.ts';
import type { DeliveryConfig } from '../../../platform/config.ts';
import type { Core } from '../../../platform/core.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import { derivedId } from '../../../platform/reactors/reactor.ts';
import type { ScheduleHandler } from '../../../platform/schedule/index.ts';
import { buildTdd, TddBuildError } from '../fs/tax-data-document/index.ts';
import { SK_TAX_DATA_DOCUMENT_TYPE_ID, TAX_REPORTING_PROCESS_ID } from '../peppol/identifiers.ts';
import { PeppolRejectedError, PeppolTransportError, type PeppolNetwork } from '../peppol/peppol-network.ts';
import { wrapInSbdh } from '../peppol/sbdh.ts';
import { loadInvoice } from '../reactors/load.ts';
import { bounded } from './bounded.ts';
import { FS_FILING } from './kinds.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & {
  network: PeppolNetwork;
  /** our Access Point's SPIS participant: corner 5's MLS comes to it */
  ourSpis: string;
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  config: Pick<DeliveryConfig, 'serviceProviderId' | 'fsParticipantId'>;
};

const NAME = 'fs-filing';
export const TAX_AUTHORITY = { id: 'SK', name: 'Finančná správa Slovenskej republiky' };

/** A filing corner 5's Access Point did not take: only its transport failing may be retried. */
function failureOf(error: unknown): AttemptFailure {
  if (error instanceof PeppolTransportError) return { kind: 'transport' };
  if (error instanceof PeppolRejectedError) return { kind: 'rejected', findings: error.findings };
  return { kind: 'refused' };
}

/**
 * One attempt of the FS leg when its row is due: for an invoice sent (reporter role C2, the seller
 * reports) or received (C3, the buyer reports), build the tax data document from the UBL and send
 * it to the Financial Administration's participant (corner 5) as a Peppol message, found like any
 * receiver, asking for its MLS. The TDD's UUID is the leg's message id, fixed when the leg started
 * (for legs begun before, derived from the event that started it), and is the SBDH instance
 * identifier: an attempt made again sends the same message, and corner 5's MLS names it. A document
 * no TDD can be built from fails the leg at once; a failed attempt is recorded with the time of the
 * next. The verdict is corner 5's MLS (src/modules/delivery/mls/receive-mls.ts).
 */
export function fsFilings(deps: Deps): ScheduleHandler {
  return {
    kind: FS_FILING,
    async run(work, signal) {
      const loaded = await loadInvoice(deps.store, work.key);
      if (!loaded || loaded.invoice.delivery.fs.status !== 'pending') return null; // filed already, or never to be
      const { invoice } = loaded;
      const due = invoice.delivery.fs.next_attempt_at ? new Date(invoice.delivery.fs.next_attempt_at) : null;
      if (due && due.getTime() > deps.clock.now().getTime()) return due;
      const invoice_id = invoice.invoice_id;
      const on = invoiceInTurn(deps, invoice_id, systemMetadata(NAME, work.ref || undefined), loaded.read);
      const at = () => deps.clock.now().toISOString();
      if (invoice.delivery.fs.attempts >= deps.policy.maxAttempts) {
        // the last failure was recorded, and not the leg's end (written before both were one append)
        await on({ type: 'RecordFsFailed', invoice_id, reason: `gave up after ${invoice.delivery.fs.attempts} attempts: ${invoice.delivery.fs.error ?? 'no answer'}`, at: at() });
        return null;
      }
      const role = invoice.source === 'peppol' ? 'C3' : 'C2';
      const ubl = role === 'C3' ? (invoice.received_ubl ?? '') : buildUbl(invoice.content, invoice.totals);
      const reporter = role === 'C2' ? invoice.content.supplier.peppol_id : invoice.content.buyer.peppol_id;
      const tddUuid = invoice.delivery.fs.message_id ?? derivedId(work.ref || invoice_id, NAME);
      let tdd: string;
      try {
        tdd = buildTdd(ubl, {
          uuid: tddUuid, issuedAt: deps.clock.now(), reporterRole: role, reportingParty: reporter ?? '',
          receivingParty: deps.config.fsParticipantId, reportersRepresentative: deps.config.serviceProviderId, taxAuthority: TAX_AUTHORITY,
        });
      } catch (error) {
        if (!(error instanceof TddBuildError)) throw error;
        await on({ type: 'RecordFsFailed', invoice_id, reason: `no tax data document can be built: ${error.message}`, at: at() });
        return null;
      }
      try {
        const envelope = wrapInSbdh({
          sender: reporter ?? '', receiver: deps.config.fsParticipantId, documentTypeId: SK_TAX_DATA_DOCUMENT_TYPE_ID, processId: TAX_REPORTING_PROCESS_ID,
          instanceId: tddUuid, createdAt: deps.clock.now(), countryC1: 'SK', document: tdd, written: true, mlsTo: deps.ourSpis, mlsType: 'ALWAYS_SEND',
        });
        await bounded((s) => deps.network.send({
          message_id: tddUuid, sender_participant_id: reporter ?? '', receiver_participant_id: deps.config.fsParticipantId,
          document_type_id: SK_TAX_DATA_DOCUMENT_TYPE_ID, process_id: TAX_REPORTING_PROCESS_ID, envelope,
        }, s), { signal, timeoutMs: deps.attemptTimeoutMs, timedOut: () => new PeppolTransportError(`no answer from the Access Point of FS within ${deps.attemptTimeoutMs} ms`) });
      } catch (error) {
        if (signal.aborted) throw error; // the service stops: not a failed attempt; made again
        const reason = error instanceof Error ? error.message : String(error);
        const handled = await on({ type: 'RecordDeliveryAttemptFailed', invoice_id, leg: 'fs', reason, failure: failureOf(error), policy: deps.policy, at: at() });
        const after = handled.state.status === 'none' ? null : handled.state.delivery.fs;
        return after?.status === 'pending' && after.next_attempt_at ? new Date(after.next_attempt_at) : null;
      }
      afterEffect('fs-submit', tddUuid); // filed, not yet recorded
      await on({ type: 'RecordFsSubmitted', invoice_id, fs_submission_id: tddUuid, tdd_uuid: tddUuid, reporter_role: role, at: at() });
      return null;
    },
  };
}
