import { setTimeout as sleep } from 'node:timers/promises';
import type { InvoiceReceived } from '../../../../events/delivery.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { retrying } from '../../../platform/handling/retry.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';

/** What the sending side does with a delivery status (src/modules/delivery/delivery.ts confirmPeppolDelivery). */
type ConfirmDelivery = (status: { message_id: string; delivered_at: string }) => Promise<void>;

/**
 * The sandbox's receiving Access Point answering with a delivery status: some time after an
 * inbound copy was recorded, the sender's copy is confirmed delivered. It is a reactor, so a
 * restart in between loses no status. Only the sandbox runs it; a real AP sends its status over
 * the network to confirmPeppolDelivery.
 */
export function sandboxDeliveryStatusReactor(deps: { clock: Clock; confirm: ConfirmDelivery }, delayMs: number): Reactor {
  return defineReactor<InvoiceReceived>({
    name: 'sandbox-delivery-status',
    handles: ['InvoiceReceived'],
    concurrency: 32,
    async react(event, signal) {
      const received = event.data;
      const due = new Date(received.received_at).getTime() + delayMs - deps.clock.now().getTime();
      if (due > 0) await sleep(due, undefined, { signal });
      // the sender's copy may not be in the read model yet: give it a moment, then let the runner retry
      await retrying(() => deps.confirm({ message_id: received.peppol_message_id, delivered_at: deps.clock.now().toISOString() }), {
        retries: 20, retryIf: () => true, backoff: (tries) => sleep(50 * (tries + 1), undefined, { signal }),
      });
    },
  });
}
