import type { InvoiceReceived } from '../../../../events/delivery.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/ports/clock.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import type { ScheduleHandler, Scheduled } from '../../../platform/schedule/index.ts';
import { SANDBOX_DELIVERY_STATUS } from '../schedule/kinds.ts';

/** What the sending side does with a delivery status (src/modules/delivery/delivery.ts confirmPeppolDelivery). */
type ConfirmDelivery = (status: { message_id: string; delivered_at: string }) => Promise<void>;

/** How often a status is tried again while the sender's copy is not in the read model yet, and how long apart. */
const TRIES = 40;
const TRY_AGAIN_MS = 50;

/**
 * The sandbox's receiving Access Point answering with a delivery status: some time after an
 * inbound copy was recorded, the sender's copy is confirmed delivered. The reaction schedules the
 * status (so a restart in between loses none, and no reaction waits); the handler sends it when
 * due. Only the sandbox runs it; a real AP sends its status over the network to confirmPeppolDelivery.
 */
export function sandboxDeliveryStatusReactor(deps: { schedule(rows: Scheduled[]): Promise<void> }, delayMs: number): Reactor {
  return defineReactor<InvoiceReceived>({
    name: 'sandbox-delivery-status',
    handles: ['InvoiceReceived'],
    concurrency: 8,
    async react(event) {
      const { peppol_message_id, received_at } = event.data;
      await deps.schedule([{
        kind: SANDBOX_DELIVERY_STATUS, key: peppol_message_id, lane: `status:${peppol_message_id}`, ref: event.id,
        due_at: new Date(new Date(received_at).getTime() + delayMs),
      }]);
    },
  });
}

export function sandboxDeliveryStatuses(deps: { clock: Clock; log: Logger; confirm: ConfirmDelivery }): ScheduleHandler {
  return {
    kind: SANDBOX_DELIVERY_STATUS,
    async run(work) {
      try {
        await deps.confirm({ message_id: work.key, delivered_at: deps.clock.now().toISOString() });
        return null;
      } catch (error) {
        // the sender's copy may not be in the read model yet: give it a moment
        if (work.runs >= TRIES) {
          deps.log.warn({ err: error, message_id: work.key }, 'sandbox delivery status: no sent copy to confirm; dropped');
          return null;
        }
        return new Date(deps.clock.now().getTime() + TRY_AGAIN_MS * work.runs);
      }
    },
  };
}
