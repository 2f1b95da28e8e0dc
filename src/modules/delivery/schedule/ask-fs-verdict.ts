import { fsVerdictDeadline } from '../../../../commands/invoices/delivery-retries.ts';
import type { Core } from '../../../platform/core.ts';
import { FsTransportError, type FsAuthority, type FsVerdict } from '../fs/fs-authority.ts';
import { bounded } from './bounded.ts';

/** While FS does not answer at all, the questions back off to this. */
const UNREACHABLE_MAX_MS = 60_000;

type Asked = { overdue: true } | { verdict: FsVerdict } | { askAgainAt: Date };

/**
 * One question to FS about a filing's verdict (an invoice's or a SAPI-SK document's): overdue once
 * the deadline after filing has passed (commands/invoices/delivery-retries.ts), the verdict when
 * FS has one, else when to ask again: after `pollMs` while FS is deciding, backing off to a minute
 * while it does not answer, never past the deadline.
 */
export async function askFsVerdict(
  deps: Pick<Core, 'clock' | 'log'> & { fs: FsAuthority },
  question: { submissionId: string; submittedAt: string; deadlineMs: number; pollMs: number; attemptTimeoutMs: number; runs: number; signal: AbortSignal },
): Promise<Asked> {
  const { submissionId, pollMs, attemptTimeoutMs, signal } = question;
  const deadline = new Date(fsVerdictDeadline(question.submittedAt, question.deadlineMs));
  if (deps.clock.now().getTime() >= deadline.getTime()) return { overdue: true };
  const notAfterDeadline = (wait: number) => new Date(Math.min(deadline.getTime(), deps.clock.now().getTime() + wait));
  let verdict: FsVerdict | null;
  try {
    verdict = await bounded(() => deps.fs.verdict(submissionId), {
      signal, timeoutMs: attemptTimeoutMs, timedOut: () => new FsTransportError(`no answer from FS within ${attemptTimeoutMs} ms`),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    deps.log.warn({ err: error, submission: submissionId }, 'FS verdict not available; asking again');
    return { askAgainAt: notAfterDeadline(Math.min(UNREACHABLE_MAX_MS, pollMs * 2 ** Math.min(16, question.runs))) };
  }
  return verdict ? { verdict } : { askAgainAt: notAfterDeadline(pollMs) };
}
