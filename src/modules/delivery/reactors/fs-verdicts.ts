import type { FsCopySubmitted } from '../../../../events/delivery.ts';
import type { Scheduled } from '../../../platform/schedule/index.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import { fsVerdict } from '../schedule/kinds.ts';

/** A document was filed: its verdict's deadline is kept (schedule/fs-verdicts.ts); the verdict is corner 5's MLS. */
export function fsVerdictReactor(deps: { schedule(rows: Scheduled[]): Promise<void>; now(): Date; deadlineMs: number }): Reactor {
  return defineReactor<FsCopySubmitted>({
    name: 'fs-verdicts',
    handles: ['FsCopySubmitted'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([fsVerdict(event.data.invoice_id, new Date(Date.parse(event.data.submitted_at) + deps.deadlineMs), event.id)]);
    },
  });
}
