import type { InvoiceQueued } from '../../../../events/delivery.ts';
import { invoiceInTurn, systemMetadata } from '../../invoices/index.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../peppol/identifiers.ts';
import { PeppolRefusedError, PeppolRejectedError, type PeppolNetwork } from '../peppol/peppol-network.ts';
import { wrapInSbdh } from '../peppol/sbdh.ts';
import type { Core } from '../../../platform/core.ts';
import type { ValidatorSource } from '../../../platform/validation/index.ts';
import { buildUbl } from '../../invoices/index.ts';
import { afterEffect } from '../../../platform/reactors/fault.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import { withAttempts, type AttemptPolicy } from './attempts.ts';
import { loadInvoice } from './load.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & { validator: ValidatorSource } & { network: PeppolNetwork; policy: AttemptPolicy };

const NAME = 'peppol-delivery';

/**
 * The Peppol leg of a queued invoice: build the UBL, check it against every rule set we promise
 * (XSD, CEN, Peppol, Slovak; a document that fails is never sent), wrap it in an SBDH whose
 * instance identifier is the message id fixed at send, and push it to the network. Transport
 * failures are retried with backoff; a refusal (unknown participant) fails the leg at once, and
 * one the receiving Access Point returned is recorded as the receiver's rejection.
 * After a crash the reaction runs again: the same message id goes out again and the receiving
 * Access Point drops the duplicate, so nothing arrives twice.
 */
export function peppolDeliveryReactor(deps: Deps): Reactor {
  const record = (invoiceId: string, event: { id: string }, read: Parameters<typeof invoiceInTurn>[3]) => ({
    on: invoiceInTurn(deps, invoiceId, systemMetadata(NAME, event.id), read),
    at: () => deps.clock.now().toISOString(),
  });
  return defineReactor<InvoiceQueued>({
    name: NAME,
    handles: ['InvoiceQueued'],
    concurrency: 8,
    async react(event, signal) {
      const queued = event.data;
      const loaded = await loadInvoice(deps.store, queued.invoice_id);
      const invoice = loaded?.invoice;
      const { peppol } = invoice?.delivery ?? {};
      if (!loaded || !invoice || !peppol || peppol.message_id !== queued.peppol_message_id) return; // superseded by a later send
      const { on, at } = record(invoice.invoice_id, event, loaded.read);
      const sender = invoice.content.supplier.peppol_id ?? '';
      const receiver = invoice.content.buyer.peppol_id ?? '';
      const documentTypeId = documentTypeFor(invoice.content.invoice_type === '381' ? 'CreditNote' : 'Invoice');
      if (peppol.status === 'delivered' && peppol.sent_at === null) {
        // the receiver's delivery status overtook the record of our send (a crash in between): it was sent
        await on({
          type: 'RecordPeppolSent', invoice_id: invoice.invoice_id, peppol_message_id: queued.peppol_message_id,
          sender_participant_id: sender, receiver_participant_id: receiver, document_type_id: documentTypeId, at: at(),
        });
        return;
      }
      if (peppol.status !== 'queued') return; // done
      const fail = (reason: string, findings: { rule: string; message: string }[] = [], rejected = false) =>
        on({
          type: 'RecordPeppolFailed', invoice_id: invoice.invoice_id, peppol_message_id: queued.peppol_message_id, reason, findings, at: at(),
          ...(rejected ? { rejected_by_receiver: true as const } : {}),
        });

      const ubl = buildUbl(invoice.content, invoice.totals);
      const report = await (await deps.validator()).validate(ubl);
      if (report.errors.length > 0 || report.xsd_valid !== true || report.peppol_valid !== true || report.slovak_valid !== true) {
        const why = report.errors.length > 0 ? 'the document fails validation' : 'the validation rules are not available, and nothing unvalidated is sent';
        await fail(`not sent: ${why}`, report.errors.map((f) => ({ rule: f.rule, message: f.message })));
        return;
      }
      const envelope = wrapInSbdh({
        sender, receiver, documentTypeId, processId: BILLING_PROCESS_ID, instanceId: queued.peppol_message_id,
        createdAt: deps.clock.now(), countryC1: invoice.content.supplier.country_code, document: ubl,
      });
      const outcome = await withAttempts(
        deps.policy,
        peppol.attempts,
        async () => {
          const receipt = await deps.network.send({ message_id: queued.peppol_message_id, sender_participant_id: sender, receiver_participant_id: receiver, document_type_id: documentTypeId, process_id: BILLING_PROCESS_ID, envelope });
          afterEffect('peppol-send', queued.peppol_message_id); // the crash-effects campaign's moment: sent, not yet recorded
          return receipt;
        },
        (error) => (error instanceof PeppolRefusedError ? 'permanent' : 'retry'),
        {
          now: () => deps.clock.now(),
          failed: async (reason, retryAt) => {
            await on({ type: 'RecordDeliveryAttemptFailed', invoice_id: invoice.invoice_id, leg: 'peppol', reason, retry_at: retryAt?.toISOString() ?? null, at: at() });
          },
        },
        signal,
      );
      if (outcome.ok) {
        await on({
          type: 'RecordPeppolSent', invoice_id: invoice.invoice_id, peppol_message_id: queued.peppol_message_id, sender_participant_id: sender,
          receiver_participant_id: receiver, document_type_id: documentTypeId, at: at(),
        });
      } else if (outcome.permanent && outcome.error instanceof PeppolRejectedError) {
        await fail(outcome.reason, outcome.error.findings, true); // the receiver's rejection (invoice.rejected)
      } else {
        await fail(outcome.permanent ? outcome.reason : `gave up after ${deps.policy.maxAttempts} attempts: ${outcome.reason}`);
      }
    },
  });
}
