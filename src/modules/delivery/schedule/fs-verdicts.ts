import { fsVerdictDeadline } from '../../../../commands/invoices/delivery-retries.ts';
import { invoiceInTurn, systemMetadata } from '../../invoices/index.ts';
import type { Core } from '../../../platform/core.ts';
import type { ScheduleHandler } from '../../../platform/schedule/index.ts';
import { loadInvoice } from '../reactors/load.ts';
import { FS_VERDICT } from './kinds.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'> & { deadlineMs: number };

const NAME = 'fs-verdicts';

/**
 * The deadline of a filed document's verdict. The verdict itself is corner 5's MLS, which comes to
 * us (src/modules/delivery/mls/receive-mls.ts); FS being slow fails nothing until the deadline after
 * filing (commands/invoices/delivery-retries.ts). When the row is due and the leg still waits, it
 * fails with the reason, and the row is done; a verdict that came first leaves nothing to do.
 */
export function fsVerdicts(deps: Deps): ScheduleHandler {
  return {
    kind: FS_VERDICT,
    async run(work) {
      const loaded = await loadInvoice(deps.store, work.key);
      const fs = loaded?.invoice.delivery.fs;
      if (!loaded || fs?.status !== 'submitted' || !fs.submission_id || !fs.submitted_at) return null; // decided, or never filed
      const deadline = new Date(fsVerdictDeadline(fs.submitted_at, deps.deadlineMs));
      if (deadline.getTime() > deps.clock.now().getTime()) return deadline;
      const on = invoiceInTurn(deps, work.key, systemMetadata(NAME, work.ref || undefined), loaded.read);
      await on({ type: 'RecordFsVerdictOverdue', invoice_id: work.key, fs_submission_id: fs.submission_id, deadline_ms: deps.deadlineMs, at: deps.clock.now().toISOString() });
      return null;
    },
  };
}
