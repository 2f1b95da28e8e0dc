import type { InvoiceReceived } from '../../../../events/delivery.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/ports/clock.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import type { ScheduleHandler, Scheduled } from '../../../platform/schedule/index.ts';
import { SANDBOX_DELIVERY_STATUS } from '../schedule/kinds.ts';

/** What the sending side does with a delivery status (src/modules/delivery/delivery.ts confirmPeppolDelivery). */
type ConfirmDelivery = (status: { message_id: string; delivered_at: string }) => Promise<void>;

/** How long a status is tried again while the sender's copy is not in the read model yet, and how often. */
const GIVE_UP_AFTER_MS = 60_000;
const TRY_AGAIN_MS = 100;
/** While a status is not due yet, it is looked at again at least this often: a restart with another delay applies to it then. */
const LOOK_AGAIN_MS = 1_000;

/**
 * The sandbox's receiving Access Point answering with a delivery status: some time after an
 * inbound copy was recorded, the sender's copy is confirmed delivered. The reaction schedules the
 * status (so a restart in between loses none, and no reaction waits); the handler sends it
 * PEPPOL_SANDBOX_DELIVERY_DELAY_MS after the receipt as configured when it looks (at least every
 * second), so a test that restarts with a shorter delay gets the status then. Only the sandbox
 * runs it; a real AP sends its status over the network to confirmPeppolDelivery.
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
        due_at: new Date(new Date(received_at).getTime() + Math.min(delayMs, LOOK_AGAIN_MS)),
      }]);
    },
  });
}

export function sandboxDeliveryStatuses(deps: { clock: Clock; log: Logger; confirm: ConfirmDelivery; delayMs: number }): ScheduleHandler {
  return {
    kind: SANDBOX_DELIVERY_STATUS,
    async run(work) {
      // scheduled when the copy was received (a repeated reaction: a little later, which a status may be)
      const due = work.scheduled_at.getTime() + deps.delayMs;
      const now = deps.clock.now().getTime();
      if (due > now) return new Date(Math.min(due, now + LOOK_AGAIN_MS));
      try {
        await deps.confirm({ message_id: work.key, delivered_at: deps.clock.now().toISOString() });
        return null;
      } catch (error) {
        // the sender's copy may not be in the read model yet: give it a moment
        if (now > due + GIVE_UP_AFTER_MS) {
          deps.log.warn({ err: error, message_id: work.key }, 'sandbox delivery status: no sent copy to confirm; dropped');
          return null;
        }
        return new Date(now + TRY_AGAIN_MS);
      }
    },
  };
}
