import { invoiceInTurn, systemMetadata } from '../../invoices/index.ts';
import type { Core } from '../../../platform/core.ts';
import type { ScheduleHandler } from '../../../platform/schedule/index.ts';
import type { FsAuthority } from '../fs/fs-authority.ts';
import { loadInvoice } from '../reactors/load.ts';
import { askFsVerdict } from './ask-fs-verdict.ts';
import { FS_VERDICT } from './kinds.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'log'> & { fs: FsAuthority; pollMs: number; attemptTimeoutMs: number; deadlineMs: number };

const NAME = 'fs-verdicts';

/**
 * One question to FS about a filed document's verdict, when its row is due: the verdict, once
 * there, is recorded (fs_acknowledged or fs_rejected); while FS is deciding it is asked again every
 * `pollMs`, and while FS does not answer, backing off to a minute. FS being slow or unreachable
 * fails nothing until the deadline after filing (commands/invoices/delivery-retries.ts): then the
 * leg fails with the reason, and the row is done.
 */
export function fsVerdicts(deps: Deps): ScheduleHandler {
  return {
    kind: FS_VERDICT,
    async run(work, signal) {
      const loaded = await loadInvoice(deps.store, work.key);
      const fs = loaded?.invoice.delivery.fs;
      if (!loaded || fs?.status !== 'submitted' || !fs.submission_id || !fs.submitted_at) return null; // decided, or never filed
      const submissionId = fs.submission_id;
      const on = invoiceInTurn(deps, work.key, systemMetadata(NAME, work.ref || undefined), loaded.read);
      const asked = await askFsVerdict(deps, {
        submissionId, submittedAt: fs.submitted_at, deadlineMs: deps.deadlineMs, pollMs: deps.pollMs, attemptTimeoutMs: deps.attemptTimeoutMs, runs: work.runs, signal,
      });
      if ('overdue' in asked) {
        await on({ type: 'RecordFsVerdictOverdue', invoice_id: work.key, fs_submission_id: submissionId, deadline_ms: deps.deadlineMs, at: deps.clock.now().toISOString() });
        return null;
      }
      if ('askAgainAt' in asked) return asked.askAgainAt;
      const { verdict } = asked;
      await on({
        type: 'RecordFsVerdict', invoice_id: work.key, fs_submission_id: verdict.submission_id, verdict: verdict.outcome,
        tdd_uuid: verdict.tdd_uuid, mls_response_code: verdict.mls_response_code, reasons: verdict.reasons, at: verdict.decided_at,
      });
      return null;
    },
  };
}
