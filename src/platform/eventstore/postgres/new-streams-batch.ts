import type { AppendResult, NewStream } from '../port.ts';

interface Call {
  streams: readonly NewStream[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** Events per combined statement at most (an invoice event of 200 lines is ~100 KB); a call above it still goes alone. */
const MAX_EVENTS = 100;

/**
 * Concurrent appendToNewStreams calls share one statement (group commit): while one statement is
 * in flight, the calls that arrive wait, and go out together when it ends. There is no timer, so
 * a lone call goes at once. A combined statement is all or nothing; when it fails (one call's
 * stream exists, or a connection broke), each of its calls is tried alone and gets its own answer.
 * Calls that name the same stream never share a statement: the later one waits for the next.
 */
export class NewStreamsBatch {
  private waiting: Call[] = [];
  private busy = false;

  constructor(private readonly startStreams: (streams: readonly NewStream[]) => Promise<AppendResult[]>) {}

  submit(streams: readonly NewStream[]): Promise<AppendResult[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ streams, resolve, reject });
      if (!this.busy) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.busy = true;
    try {
      while (this.waiting.length > 0) await this.run(this.take());
    } finally {
      this.busy = false;
    }
  }

  /** The next group: waiting calls in order, up to MAX_EVENTS, none naming a stream twice. */
  private take(): Call[] {
    const group: Call[] = [];
    const rest: Call[] = [];
    const named = new Set<string>();
    let events = 0;
    for (const call of this.waiting) {
      const size = call.streams.reduce((n, s) => n + s.events.length, 0);
      const clash = call.streams.some((s) => named.has(s.streamId));
      if (clash || (group.length > 0 && events + size > MAX_EVENTS)) {
        rest.push(call);
        continue;
      }
      group.push(call);
      events += size;
      call.streams.forEach((s) => named.add(s.streamId));
    }
    this.waiting = rest;
    return group;
  }

  private async run(group: Call[]): Promise<void> {
    if (group.length === 1) return this.alone(group[0] as Call);
    let results: AppendResult[];
    try {
      results = await this.startStreams(group.flatMap((call) => call.streams));
    } catch {
      await Promise.all(group.map((call) => this.alone(call)));
      return;
    }
    let next = 0;
    for (const call of group) {
      call.resolve(results.slice(next, next + call.streams.length));
      next += call.streams.length;
    }
  }

  private alone(call: Call): Promise<void> {
    return this.startStreams(call.streams).then(call.resolve, call.reject);
  }
}
