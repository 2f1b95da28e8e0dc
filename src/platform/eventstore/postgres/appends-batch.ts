import type { AppendResult, StreamWrite } from '../port.ts';

interface Call {
  write: StreamWrite;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** Events per combined statement at most (an invoice event of 200 lines is ~100 KB); a call above it still goes alone. */
const MAX_EVENTS = 100;

/**
 * Single-stream appends made together share one statement: a request that reserves a number and
 * counts its document appends to two hot streams at once (each group-committed on its own), and
 * together they are one round trip instead of two. The statement goes out once the promise
 * callbacks running now have run (process.nextTick, queued from one of them, runs after them), so
 * appends made in one cascade of promise callbacks share it, and none waits for the rest of the
 * event loop's turn (setImmediate would, which under load is the whole poll phase). A combined
 * statement is all or nothing; when it fails (one call's stream moved, a connection broke), each
 * of its calls is tried alone and gets its own answer, exactly as without the batch. Calls that
 * name the same stream never share a statement: each goes in its own.
 */
export class AppendsBatch {
  private waiting: Call[] = [];

  constructor(
    /** the calls' writes in one statement: one result per write, in order; throws when nothing was written */
    private readonly together: (writes: readonly StreamWrite[]) => Promise<AppendResult[]>,
    /** one call's write alone, with the store's own conflict answer */
    private readonly alone: (write: StreamWrite) => Promise<AppendResult>,
  ) {}

  submit(write: StreamWrite): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) process.nextTick(() => this.flush());
      this.waiting.push({ write, resolve, reject });
    });
  }

  private flush(): void {
    let rest = this.waiting;
    this.waiting = [];
    while (rest.length > 0) {
      const [group, left] = take(rest);
      void this.run(group);
      rest = left;
    }
  }

  private async run(group: Call[]): Promise<void> {
    if (group.length === 1) return this.goAlone(group[0] as Call);
    let results: AppendResult[];
    try {
      results = await this.together(group.map((call) => call.write));
    } catch {
      await Promise.all(group.map((call) => this.goAlone(call)));
      return;
    }
    group.forEach((call, i) => call.resolve(results[i] as AppendResult));
  }

  private goAlone(call: Call): Promise<void> {
    return this.alone(call.write).then(call.resolve, call.reject);
  }
}

/** The next group: calls in order, up to MAX_EVENTS, none naming a stream twice; and the rest. */
function take(calls: readonly Call[]): [Call[], Call[]] {
  const group: Call[] = [];
  const rest: Call[] = [];
  const named = new Set<string>();
  let events = 0;
  for (const call of calls) {
    const size = call.write.events.length;
    if (named.has(call.write.streamId) || (group.length > 0 && events + size > MAX_EVENTS)) {
      rest.push(call);
      continue;
    }
    group.push(call);
    events += size;
    named.add(call.write.streamId);
  }
  return [group, rest];
}
