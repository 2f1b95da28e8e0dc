import type { InvoiceQueued, InvoiceReceived } from '../../../../events/delivery.ts';
import { invoiceInTurn, systemMetadata } from '../../invoices/index.ts';
import type { DeliveryConfig } from '../../../platform/config.ts';
import { FsTransportError, type FsAuthority } from '../fs/fs-authority.ts';
import type { Core } from '../../../platform/core.ts';
import { buildTdd, TddBuildError } from '../fs/tax-data-document/index.ts';
import { buildUbl } from '../../invoices/index.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import { defineReactor, derivedId, type Reactor } from '../../../platform/reactors/reactor.ts';
import { withAttempts, type AttemptPolicy } from './attempts.ts';
import { loadInvoice } from './load.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & {
  fs: FsAuthority;
  policy: AttemptPolicy;
  config: Pick<DeliveryConfig, 'serviceProviderId' | 'fsParticipantId'>;
};

const NAME = 'fs-filing';
export const TAX_AUTHORITY = { id: 'SK', name: 'Finančná správa Slovenskej republiky' };

/**
 * The FS leg: for an invoice sent (reporter role C2, the seller reports) or received (C3, the
 * buyer reports), build the tax data document from the UBL and file it. The TDD's UUID is derived
 * from the event, so a reaction repeated after a crash files the same TDD again and FS recognises
 * it. Transport failures are retried with backoff; a document no TDD can be built from fails the
 * leg at once. The verdict comes later (fs-verdicts).
 */
export function fsFilingReactor(deps: Deps): Reactor {
  return defineReactor<InvoiceQueued | InvoiceReceived>({
    name: NAME,
    handles: ['InvoiceQueued', 'InvoiceReceived'],
    concurrency: 8,
    async react(event, signal) {
      const { invoice_id } = event.data;
      const loaded = await loadInvoice(deps.store, invoice_id);
      if (!loaded || loaded.invoice.delivery.fs.status !== 'pending') return; // filed already, or never to be
      const { invoice } = loaded;
      const on = invoiceInTurn(deps, invoice_id, systemMetadata(NAME, event.id), loaded.read);
      const at = () => deps.clock.now().toISOString();
      const role = invoice.source === 'peppol' ? 'C3' : 'C2';
      const fail = (reason: string) => on({ type: 'RecordFsFailed', invoice_id, reason, at: at() });

      const ubl = role === 'C3' ? (invoice.received_ubl ?? '') : buildUbl(invoice.content, invoice.totals);
      const reporter = role === 'C2' ? invoice.content.supplier.peppol_id : invoice.content.buyer.peppol_id;
      const tddUuid = derivedId(event.id, NAME);
      let tdd: string;
      try {
        tdd = buildTdd(ubl, {
          uuid: tddUuid, issuedAt: deps.clock.now(), reporterRole: role, reportingParty: reporter ?? '',
          receivingParty: deps.config.fsParticipantId, reportersRepresentative: deps.config.serviceProviderId, taxAuthority: TAX_AUTHORITY,
        });
      } catch (error) {
        if (!(error instanceof TddBuildError)) throw error;
        await fail(`no tax data document can be built: ${error.message}`);
        return;
      }
      const outcome = await withAttempts(
        deps.policy,
        invoice.delivery.fs.attempts,
        async () => {
          const submitted = await deps.fs.submit({ tdd, tdd_uuid: tddUuid, reporter_role: role, invoice_id });
          afterEffect('fs-submit', tddUuid); // filed, not yet recorded
          return submitted;
        },
        (error) => (error instanceof FsTransportError ? 'retry' : 'permanent'),
        {
          now: () => deps.clock.now(),
          failed: async (reason, retryAt) => {
            await on({ type: 'RecordDeliveryAttemptFailed', invoice_id, leg: 'fs', reason, retry_at: retryAt?.toISOString() ?? null, at: at() });
          },
        },
        signal,
      );
      if (outcome.ok) {
        await on({ type: 'RecordFsSubmitted', invoice_id, fs_submission_id: outcome.value.submission_id, tdd_uuid: tddUuid, reporter_role: role, at: at() });
      } else {
        await fail(outcome.permanent ? outcome.reason : `gave up after ${deps.policy.maxAttempts} attempts: ${outcome.reason}`);
      }
    },
  });
}
