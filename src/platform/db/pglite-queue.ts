import type { PGlite } from '@electric-sql/pglite';

interface Queued {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
}

// Extended-query protocol messages: Parse, Bind, Describe, Execute, Close, Flush. Until the
// client's Sync ('S') they share one unnamed statement/portal, so they must not interleave with
// another connection's.
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const SYNC = 'S'.charCodeAt(0);

/**
 * The one queue through which all socket connections reach the single PGlite session.
 *
 * pglite-socket 0.2.17's own queue keeps a connection's messages together only inside a
 * transaction. Outside one, `pg`'s Parse/Bind/Execute/Sync of two connections interleave, and one
 * connection binds the other's unnamed statement ("bind message supplies 5 parameters, but
 * prepared statement requires 3"). This queue also keeps an extended-query unit together up to
 * its Sync, and survives a failed message instead of stalling. Same contract as the library's
 * (enqueue / clearQueueForHandler / clearTransactionIfNeeded / getQueueLength).
 */
export class ExtendedQueryQueue {
  private queue: Queued[] = [];
  private processing = false;
  /** the connection that owns PGlite until its Sync (extended unit) or its COMMIT/ROLLBACK */
  private owner: number | null = null;
  private inUnit = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true;
      q.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that goes away mid-transaction or mid-unit must not keep PGlite to itself. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    this.inUnit = false;
    void this.process();
  }

  private next(): Queued | undefined {
    const pinned = this.owner !== null && (this.inUnit || this.db.isInTransaction());
    if (!pinned) return this.queue.shift();
    const i = this.queue.findIndex((q) => q.handlerId === this.owner);
    return i === -1 ? undefined : this.queue.splice(i, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        const query = item;
        const type = query.message[0] ?? 0;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(query.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                query.onData(data);
              },
            }),
          );
        } catch (error) {
          query.reject(error as Error);
          continue;
        }
        this.owner = query.handlerId;
        if (EXTENDED.has(type)) this.inUnit = true;
        else if (type === SYNC) this.inUnit = false;
        query.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }
}
