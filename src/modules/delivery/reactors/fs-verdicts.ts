import type { FsCopySubmitted } from '../../../../events/delivery.ts';
import { decideOnInvoice, systemMetadata } from '../../invoices/index.ts';
import type { FsAuthority } from '../fs/fs-authority.ts';
import type { Core } from '../../../platform/core.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import { awaitFsVerdict } from './await-fs-verdict.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'log'> & { fs: FsAuthority; pollMs: number };

const NAME = 'fs-verdicts';

/**
 * Waits for FS's verdict on each submitted TDD and records it (fs_acknowledged or fs_rejected).
 * A filed document is never failed for FS being slow or unreachable: it keeps asking, backing
 * off to a minute between questions while FS does not answer.
 */
export function fsVerdictReactor(deps: Deps): Reactor {
  return defineReactor<FsCopySubmitted>({
    name: NAME,
    handles: ['FsCopySubmitted'],
    concurrency: 32,
    async react(event, signal) {
      const submitted = event.data;
      const verdict = await awaitFsVerdict(deps.fs, submitted.fs_submission_id, { pollMs: deps.pollMs, log: deps.log, signal });
      await decideOnInvoice(deps, submitted.invoice_id, {
        type: 'RecordFsVerdict', invoice_id: submitted.invoice_id, fs_submission_id: verdict.submission_id, verdict: verdict.outcome,
        tdd_uuid: verdict.tdd_uuid, mls_response_code: verdict.mls_response_code, reasons: verdict.reasons, at: verdict.decided_at,
      }, systemMetadata(NAME, event.id));
    },
  });
}
