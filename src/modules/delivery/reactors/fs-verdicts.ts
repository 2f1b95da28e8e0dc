import type { FsCopySubmitted } from '../../../../events/delivery.ts';
import type { Scheduled } from '../../../platform/schedule/index.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import { fsVerdict } from '../schedule/kinds.ts';

/** A document was filed: FS is asked for its verdict after `pollMs` (schedule/fs-verdicts.ts asks, until it answers or the deadline). */
export function fsVerdictReactor(deps: { schedule(rows: Scheduled[]): Promise<void>; now(): Date; pollMs: number }): Reactor {
  return defineReactor<FsCopySubmitted>({
    name: 'fs-verdicts',
    handles: ['FsCopySubmitted'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([fsVerdict(event.data.invoice_id, new Date(deps.now().getTime() + deps.pollMs), event.id)]);
    },
  });
}
