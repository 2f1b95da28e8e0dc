import type { PeppolMessageSent } from '../../../../events/delivery.ts';
import { decideOnInvoice, systemMetadata } from '../../invoices/index.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';

/**
 * Over AS4 a leg is recorded sent only once the receiving Access Point's signed Receipt has been
 * verified (as4-network.ts): that receipt is its proof of delivery to corner 3, so the sent
 * invoice is confirmed delivered at once, as the sandbox's delivery status does later
 * (sandbox/delivery-status.ts, which only the sandbox runs). A Peppol Message Level Status, when
 * built, would report the receiver's business verdict on top of this.
 */
export function as4DeliveryStatusReactor(deps: Parameters<typeof decideOnInvoice>[0]): Reactor {
  return defineReactor<PeppolMessageSent>({
    name: 'as4-delivery-status',
    handles: ['PeppolMessageSent'],
    concurrency: 32,
    async react(event) {
      const sent = event.data;
      await decideOnInvoice(deps, sent.invoice_id, {
        type: 'ConfirmPeppolDelivery', invoice_id: sent.invoice_id, peppol_message_id: sent.peppol_message_id, at: sent.sent_at,
      }, systemMetadata('as4-receipt', sent.peppol_message_id));
    },
  });
}
