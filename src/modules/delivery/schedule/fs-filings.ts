import type { AttemptFailure, RetryPolicy } from '../../../../commands/invoices/delivery-retries.ts';
import { invoiceInTurn, systemMetadata, buildUbl } from '../../invoices/index.ts';
import type { DeliveryConfig } from '../../../platform/config.ts';
import type { Core } from '../../../platform/core.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import { derivedId } from '../../../platform/reactors/reactor.ts';
import type { ScheduleHandler } from '../../../platform/schedule/index.ts';
import { FsTransportError, type FsAuthority } from '../fs/fs-authority.ts';
import { buildTdd, TddBuildError } from '../fs/tax-data-document/index.ts';
import { loadInvoice } from '../reactors/load.ts';
import { bounded } from './bounded.ts';
import { FS_FILING } from './kinds.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & {
  fs: FsAuthority;
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  config: Pick<DeliveryConfig, 'serviceProviderId' | 'fsParticipantId'>;
};

const NAME = 'fs-filing';
export const TAX_AUTHORITY = { id: 'SK', name: 'Finančná správa Slovenskej republiky' };

/** A filing FS did not take: only its transport failing may be retried. */
const failureOf = (error: unknown): AttemptFailure => (error instanceof FsTransportError ? { kind: 'transport' } : { kind: 'refused' });

/**
 * One attempt of the FS leg when its row is due: for an invoice sent (reporter role C2, the seller
 * reports) or received (C3, the buyer reports), build the tax data document from the UBL and file
 * it. The TDD's UUID is derived from the event that started the leg (the row's ref), so an attempt
 * made again files the same TDD and FS recognises it. A document no TDD can be built from fails
 * the leg at once; a failed attempt is recorded with the time of the next. The verdict comes later
 * (fs-verdicts.ts).
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
      const tddUuid = derivedId(work.ref || invoice_id, NAME);
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
      let submitted: { submission_id: string };
      try {
        submitted = await bounded(() => deps.fs.submit({ tdd, tdd_uuid: tddUuid, reporter_role: role, invoice_id }), {
          signal, timeoutMs: deps.attemptTimeoutMs, timedOut: () => new FsTransportError(`no answer from FS within ${deps.attemptTimeoutMs} ms`),
        });
      } catch (error) {
        if (signal.aborted) throw error; // the service stops: not a failed attempt; made again
        const reason = error instanceof Error ? error.message : String(error);
        const handled = await on({ type: 'RecordDeliveryAttemptFailed', invoice_id, leg: 'fs', reason, failure: failureOf(error), policy: deps.policy, at: at() });
        const after = handled.state.status === 'none' ? null : handled.state.delivery.fs;
        return after?.status === 'pending' && after.next_attempt_at ? new Date(after.next_attempt_at) : null;
      }
      afterEffect('fs-submit', tddUuid); // filed, not yet recorded
      await on({ type: 'RecordFsSubmitted', invoice_id, fs_submission_id: submitted.submission_id, tdd_uuid: tddUuid, reporter_role: role, at: at() });
      return null;
    },
  };
}
