import { creditNoteDecider } from '../../../../commands/credit-notes/decider.ts';
import { creditNoteOutcome } from '../../../../commands/credit-notes/outcome.ts';
import type { DeliveryEvent } from '../../../../events/delivery.ts';
import { invoiceStream } from '../../../../events/invoices.ts';
import { INVOICE_RETRIES, systemMetadata } from '../../invoices/index.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { currentInvoice } from '../../delivery/index.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';

const NAME = 'credit-note-outcomes';

/**
 * The Peppol and FS steps after which a credit note may be issued or give its amount back. One
 * delivered by hand is issued in the write that delivers it (create.ts, send.ts), so a mark-sent
 * costs this reactor nothing.
 */
const OUTCOME_EVENTS = ['PeppolMessageSent', 'PeppolDeliveryConfirmed', 'PeppolDeliveryFailed', 'FsCopyRejected'] as const;

/**
 * Brings a credit note's delivery back to the invoice it credits (outcome.ts decides what it
 * means): issued, or released. Decided on the invoice's stream, idempotently, so a repeated
 * reaction decides nothing; an invoice's other events never wait for it (its version moves, and a
 * client's If-Match then asks for a reload, as any change does).
 */
export function creditNoteOutcomeReactor(deps: Pick<Core, 'store' | 'ids' | 'clock'>): Reactor {
  return defineReactor<Extract<DeliveryEvent, { type: (typeof OUTCOME_EVENTS)[number] }>>({
    name: NAME,
    handles: OUTCOME_EVENTS,
    concurrency: 8,
    async react(event) {
      const { invoice_id } = event.data;
      const creditNote = await currentInvoice(deps.store, invoice_id);
      if (!creditNote?.credited_invoice) return; // an invoice, or an inbound copy: nothing to bring back
      const command = creditNoteOutcome(creditNote, deps.clock.now().toISOString());
      if (!command) return;
      await handleCommand(deps, invoiceStream(creditNote.credited_invoice.invoice_id), creditNoteDecider, command, {
        metadata: systemMetadata(NAME, event.id), expected: { retry: { onVersionConflict: INVOICE_RETRIES } },
      });
    },
  });
}
