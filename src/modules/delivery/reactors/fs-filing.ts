import type { InvoiceQueued, InvoiceReceived } from '../../../../events/delivery.ts';
import type { Scheduled } from '../../../platform/schedule/index.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import { fsFiling } from '../schedule/kinds.ts';

/**
 * The FS leg of an invoice sent (C2) or received (C3) starts: its filing is due now
 * (schedule/fs-filings.ts files it; the TDD's UUID derives from this event's id, the row's ref).
 */
export function fsFilingReactor(deps: { schedule(rows: Scheduled[]): Promise<void>; now(): Date }): Reactor {
  return defineReactor<InvoiceQueued | InvoiceReceived>({
    name: 'fs-filing',
    handles: ['InvoiceQueued', 'InvoiceReceived'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([fsFiling(event.data.invoice_id, deps.now(), event.id)]);
    },
  });
}
