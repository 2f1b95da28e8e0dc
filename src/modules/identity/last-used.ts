import type { DataSource } from 'typeorm';
import type { Logger } from 'pino';

/** How often uses are written: `last_used_at` is at most this stale. */
const FLUSH_MS = 15_000;

/**
 * Remembers when each credential (an API key, by id) was last used and writes the latest
 * times in one statement every FLUSH_MS and on stop, instead of a write per request.
 */
export class LastUsed {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: { readModels: DataSource; log: Logger }) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  used(credentialId: string, at: Date): void {
    this.pending.set(credentialId, at);
  }

  /** The time not yet written for a credential, if any (reads merge it with the stored one). */
  unwritten(credentialId: string): Date | undefined {
    return this.pending.get(credentialId);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.deps.readModels.query(
        `INSERT INTO credential_last_used (credential_id, last_used_at)
         SELECT * FROM unnest($1::varchar[], $2::timestamptz[])
         ON CONFLICT (credential_id) DO UPDATE SET last_used_at = greatest(credential_last_used.last_used_at, excluded.last_used_at)`,
        [[...batch.keys()], [...batch.values()]],
      );
    } catch (error) {
      // keep them for the next flush rather than lose them
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.deps.log.warn({ err: error }, 'could not write credential last-used times; will retry');
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
