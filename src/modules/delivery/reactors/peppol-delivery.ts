import type { InvoiceQueued } from '../../../../events/delivery.ts';
import type { Scheduled } from '../../../platform/schedule/index.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import { peppolAttempt } from '../schedule/kinds.ts';

/**
 * The Peppol leg of a queued invoice starts: its first attempt is due now (schedule/peppol-attempts.ts
 * makes it). The reaction only schedules, so it never waits on a receiver; a repeat after a crash
 * schedules again, and the attempt reads the stream to see what is left to do.
 */
export function peppolDeliveryReactor(deps: { schedule(rows: Scheduled[]): Promise<void>; now(): Date }): Reactor {
  return defineReactor<InvoiceQueued>({
    name: 'peppol-delivery',
    handles: ['InvoiceQueued'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([peppolAttempt(event.data.invoice_id, event.data.receiver_participant_id, deps.now(), event.id)]);
    },
  });
}
