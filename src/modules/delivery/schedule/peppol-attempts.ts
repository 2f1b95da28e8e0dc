import type { AttemptFailure, RetryPolicy } from '../../../../commands/invoices/delivery-retries.ts';
import { invoiceInTurn, systemMetadata, buildUbl } from '../../invoices/index.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../peppol/identifiers.ts';
import { PeppolRefusedError, PeppolRejectedError, PeppolTransportError, type PeppolNetwork, type PeppolReceipt } from '../peppol/peppol-network.ts';
import { wrapInSbdh } from '../peppol/sbdh.ts';
import type { Core } from '../../../platform/core.ts';
import type { ValidatorSource } from '../../../platform/validation/index.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import type { ScheduleHandler } from '../../../platform/schedule/index.ts';
import { loadInvoice } from '../reactors/load.ts';
import { bounded } from './bounded.ts';
import { PEPPOL_ATTEMPT } from './kinds.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & {
  validator: ValidatorSource;
  network: PeppolNetwork;
  policy: RetryPolicy;
  attemptTimeoutMs: number;
  /** our Access Point's SPIS participant: where the receiving Access Point sends its MLS */
  ourSpis: string;
};

const NAME = 'peppol-delivery';

/** What a failed send means for the leg (the rule is the decider's: commands/invoices/delivery-retries.ts). */
function failureOf(error: unknown): AttemptFailure {
  if (error instanceof PeppolRejectedError) return { kind: 'rejected', findings: error.findings };
  if (error instanceof PeppolRefusedError) return { kind: 'refused' };
  return { kind: 'transport' };
}

/**
 * One attempt of a queued invoice's Peppol leg, when its row is due: build the UBL, check it
 * against every rule set we promise (a document that fails is never sent), wrap it in an SBDH
 * whose instance identifier is the message id fixed at send, and push it, bounded by the attempt
 * timeout. A failure is recorded with the time of the next attempt (or the leg's end), and that
 * time is when the row is due again. The row is early (a repeated reaction moved it) when the
 * stream names a later attempt time, and done once the leg is no longer queued. An attempt cut off
 * by a crash is made again: the same message id, which the receiving Access Point drops as a duplicate.
 */
export function peppolAttempts(deps: Deps): ScheduleHandler {
  return {
    kind: PEPPOL_ATTEMPT,
    async run(work, signal) {
      const loaded = await loadInvoice(deps.store, work.key);
      const invoice = loaded?.invoice;
      const peppol = invoice?.delivery.peppol;
      if (!loaded || !invoice || !peppol?.message_id) return null;
      const on = invoiceInTurn(deps, invoice.invoice_id, systemMetadata(NAME, work.ref || undefined), loaded.read);
      const at = () => deps.clock.now().toISOString();
      const sender = invoice.content.supplier.peppol_id ?? '';
      const receiver = invoice.content.buyer.peppol_id ?? '';
      const messageId = peppol.message_id;
      const documentTypeId = documentTypeFor(invoice.content.invoice_type === '381' ? 'CreditNote' : 'Invoice');
      if (peppol.status === 'delivered' && peppol.sent_at === null) {
        // the receiver's delivery status overtook the record of our send (a crash in between): it was sent
        await on({ type: 'RecordPeppolSent', invoice_id: invoice.invoice_id, peppol_message_id: messageId, sender_participant_id: sender, receiver_participant_id: receiver, document_type_id: documentTypeId, as4: null, at: at() });
        return null;
      }
      if (peppol.status !== 'queued') return null;
      const due = peppol.next_attempt_at ? new Date(peppol.next_attempt_at) : null;
      if (due && due.getTime() > deps.clock.now().getTime()) return due;
      if (peppol.attempts >= deps.policy.maxAttempts) {
        // the last failure was recorded, and not the leg's end (written before both were one append)
        await on({ type: 'RecordPeppolFailed', invoice_id: invoice.invoice_id, peppol_message_id: messageId, reason: `gave up after ${peppol.attempts} attempts: ${peppol.error ?? 'no answer'}`, findings: [], at: at() });
        return null;
      }

      const ubl = buildUbl(invoice.content, invoice.totals);
      // the rules in force when the invoice was sent (queued), whenever this attempt runs
      const report = await (await deps.validator()).validate(ubl, { at: new Date(peppol.queued_at ?? deps.clock.now()) });
      if (report.errors.length > 0 || report.xsd_valid !== true || report.peppol_valid !== true || report.slovak_valid !== true) {
        const why = report.errors.length > 0 ? 'the document fails validation' : 'the validation rules are not available, and nothing unvalidated is sent';
        await on({ type: 'RecordPeppolFailed', invoice_id: invoice.invoice_id, peppol_message_id: messageId, reason: `not sent: ${why}`, findings: report.errors.map((f) => ({ rule: f.rule, message: f.message })), at: at() });
        return null;
      }
      const envelope = wrapInSbdh({
        sender, receiver, documentTypeId, processId: BILLING_PROCESS_ID, instanceId: messageId,
        createdAt: deps.clock.now(), countryC1: invoice.content.supplier.country_code, document: ubl,
        // every status back (Slovakia's five corners), to our own MLS address
        mlsTo: deps.ourSpis, mlsType: 'ALWAYS_SEND',
      });
      let receipt: PeppolReceipt;
      try {
        receipt = await bounded((s) => deps.network.send({ message_id: messageId, sender_participant_id: sender, receiver_participant_id: receiver, document_type_id: documentTypeId, process_id: BILLING_PROCESS_ID, envelope }, s), {
          signal, timeoutMs: deps.attemptTimeoutMs, timedOut: () => new PeppolTransportError(`no answer from the receiving Access Point within ${deps.attemptTimeoutMs} ms`),
        });
      } catch (error) {
        if (signal.aborted) throw error; // the service stops (or the lease ran out): not a failed attempt; made again
        const reason = error instanceof Error ? error.message : String(error);
        const handled = await on({ type: 'RecordDeliveryAttemptFailed', invoice_id: invoice.invoice_id, leg: 'peppol', reason, failure: failureOf(error), policy: deps.policy, at: at() });
        const after = handled.state.status === 'none' ? null : handled.state.delivery.peppol;
        return after?.status === 'queued' && after.next_attempt_at ? new Date(after.next_attempt_at) : null;
      }
      afterEffect('peppol-send', messageId); // the crash-effects campaign's moment: sent, not yet recorded
      await on({
        type: 'RecordPeppolSent', invoice_id: invoice.invoice_id, peppol_message_id: messageId, sender_participant_id: sender, receiver_participant_id: receiver,
        document_type_id: documentTypeId, as4: receipt.as4 ?? null, at: at(),
      });
      return null;
    },
  };
}
