import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { FsAuthority, FsVerdict } from '../fs/fs-authority.ts';

/**
 * Asks FS for a submission's verdict until it has one: every `pollMs` while FS is deciding, and
 * backing off to a minute between questions while FS does not answer. A filed document is never
 * failed for FS being slow or unreachable; only the signal (the runner stopping) ends the wait.
 */
export async function awaitFsVerdict(fs: FsAuthority, submissionId: string, options: { pollMs: number; log: Logger; signal: AbortSignal }): Promise<FsVerdict> {
  for (let unreachable = 0; ; ) {
    let verdict: FsVerdict | null;
    try {
      verdict = await fs.verdict(submissionId);
    } catch (error) {
      unreachable++;
      options.log.warn({ err: error, submission: submissionId }, 'FS verdict not available; asking again');
      await sleep(Math.min(60_000, options.pollMs * 2 ** unreachable), undefined, { signal: options.signal });
      continue;
    }
    if (verdict) return verdict;
    await sleep(options.pollMs, undefined, { signal: options.signal });
  }
}
