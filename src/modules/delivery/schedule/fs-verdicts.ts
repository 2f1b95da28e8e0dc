import { fsVerdictDeadline } from '../../../../commands/invoices/delivery-retries.ts';
import { invoiceInTurn, systemMetadata } from '../../invoices/index.ts';
import type { Core } from '../../../platform/core.ts';
import type { ScheduleHandler } from '../../../platform/schedule/index.ts';
import { FsTransportError, type FsAuthority, type FsVerdict } from '../fs/fs-authority.ts';
import { loadInvoice } from '../reactors/load.ts';
import { bounded } from './bounded.ts';
import { FS_VERDICT } from './kinds.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'log'> & { fs: FsAuthority; pollMs: number; attemptTimeoutMs: number; deadlineMs: number };

const NAME = 'fs-verdicts';
/** While FS does not answer at all, the questions back off to this. */
const UNREACHABLE_MAX_MS = 60_000;

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
      const now = deps.clock.now();
      const deadline = new Date(fsVerdictDeadline(fs.submitted_at, deps.deadlineMs));
      if (now.getTime() >= deadline.getTime()) {
        await on({ type: 'RecordFsVerdictOverdue', invoice_id: work.key, fs_submission_id: submissionId, deadline_ms: deps.deadlineMs, at: now.toISOString() });
        return null;
      }
      let verdict: FsVerdict | null;
      try {
        verdict = await bounded(() => deps.fs.verdict(submissionId), {
          signal, timeoutMs: deps.attemptTimeoutMs, timedOut: () => new FsTransportError(`no answer from FS within ${deps.attemptTimeoutMs} ms`),
        });
      } catch (error) {
        if (signal.aborted) throw error;
        deps.log.warn({ err: error, submission: submissionId }, 'FS verdict not available; asking again');
        const wait = Math.min(UNREACHABLE_MAX_MS, deps.pollMs * 2 ** Math.min(16, work.runs));
        return new Date(Math.min(deadline.getTime(), deps.clock.now().getTime() + wait));
      }
      if (!verdict) return new Date(Math.min(deadline.getTime(), deps.clock.now().getTime() + deps.pollMs));
      await on({
        type: 'RecordFsVerdict', invoice_id: work.key, fs_submission_id: verdict.submission_id, verdict: verdict.outcome,
        tdd_uuid: verdict.tdd_uuid, mls_response_code: verdict.mls_response_code, reasons: verdict.reasons, at: verdict.decided_at,
      });
      return null;
    },
  };
}
