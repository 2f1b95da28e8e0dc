import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { Clock } from '../ports/clock.ts';
import type { ClaimedWork, Scheduled, ScheduleStore } from './store.ts';
import { wakeablePause } from '../pause.ts';

/**
 * What a kind of scheduled work does when due: look at the state its key names, do one step (one
 * delivery attempt, one question to FS) and say when to look again, or null when nothing is left
 * to do. It must be safe to run again (a run cut off by a crash is made again after its lease),
 * must bound its own waits (an attempt timeout), and must end when `signal` aborts (the service stops).
 */
export interface ScheduleHandler {
  kind: string;
  run(work: ClaimedWork, signal: AbortSignal): Promise<Date | null>;
}

interface Options {
  /** runs in flight on this instance, all kinds together */
  concurrency: number;
  /** runs in flight on this instance per lane (per receiver): a lane that hangs holds only these */
  perLane: number;
  /** how long a claimed row stays this instance's without a renewal: a crashed instance's rows are taken over after it */
  leaseMs?: number;
  /** when nothing wakes the worker, it looks for due rows at least this often */
  pollMs?: number;
  /**
   * this process is the only one on the database (PGlite): leases found at start are a crashed
   * run's, released at once instead of after their 30 s
   */
  soleInstance?: boolean;
}

/** A run that threw (the database away, a bug) is looked at again after this, doubling to a minute. */
const FAILED_RUN_MS = 1_000;
/** Leases are renewed at this fraction of their length while their runs go on. */
const RENEW_EVERY = 1 / 3;

/**
 * Runs scheduled work (store.ts) when it is due: each row is leased while it runs (renewed while
 * it goes on), so several instances share the schedule and a crashed one's rows are taken over
 * when their leases end (30 s); a clean stop gives its rows back at once. The schedule is in the
 * database, so a restart loses nothing. Nothing waits for anything else: a run that hangs holds one
 * slot of its lane until its own timeout ends it, and the others go on.
 */
export class ScheduledWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** something changed since the loop last looked (work added, a slot freed): it looks again before sleeping */
  private poked = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly lanes = new Map<string, number>();
  private readonly handlers: Map<string, ScheduleHandler>;
  /** the kinds this worker runs: several workers (modules) share the table, each taking only its own */
  private readonly kinds: string[];
  private abort = new AbortController();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  /** this worker's lease token: it renews, finishes and releases only rows it holds */
  private readonly owner = randomUUID();
  private renewing: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: { store: ScheduleStore; clock: Clock; log: Logger },
    handlers: readonly ScheduleHandler[],
    private readonly options: Options,
  ) {
    this.handlers = new Map(handlers.map((h) => [h.kind, h]));
    this.kinds = [...this.handlers.keys()];
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    setMaxListeners(0, this.abort.signal); // one listener per run in flight
    this.loop = this.schedule();
    this.renewing = setInterval(() => void this.renew(), Math.max(10, this.leaseMs * RENEW_EVERY));
  }

  /** Keeps the rows under way leased: a run may take longer than a lease (a slow receiver), a crashed instance's rows free up after one. */
  private async renew(): Promise<void> {
    const keys = [...this.inFlight.keys()].map((id) => {
      const [kind = '', key = ''] = id.split('\u0000');
      return { kind, key };
    });
    await this.deps.store.renew(this.owner, keys, new Date(this.deps.clock.now().getTime() + this.leaseMs))
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'scheduled work: could not renew leases; trying again'));
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.renewing) clearInterval(this.renewing);
    this.abort.abort();
    this.poke();
    await this.loop;
    await Promise.all(this.inFlight.values());
  }

  /** Schedules work and, when some is due now, looks at once rather than at the next poll. */
  async add(rows: readonly Scheduled[]): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.store.schedule(rows, now);
    if (rows.some((r) => r.due_at.getTime() <= now.getTime() + this.pollMs)) this.poke();
  }

  private poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async schedule(): Promise<void> {
    if (this.options.soleInstance) {
      await this.deps.store.releaseAll(this.kinds).catch((error: unknown) => this.deps.log.warn({ err: error }, 'scheduled work: could not release stale leases; they end by themselves'));
    }
    while (this.running) {
      let wait = this.pollMs;
      this.poked = false;
      try {
        const now = this.deps.clock.now();
        const claimed = await this.deps.store.claim(this.kinds, now, this.options.concurrency - this.inFlight.size, this.options.perLane, this.lanes, new Date(now.getTime() + this.leaseMs), this.owner);
        for (const work of claimed) this.begin(work);
        if (claimed.length > 0 && this.inFlight.size < this.options.concurrency) wait = 0; // more may be due in lanes not taken this round
        else if (this.poked) wait = 0; // poked meanwhile: it looks again at once, so when the next row is due does not matter yet
        else {
          const next = await this.deps.store.next(this.kinds, now);
          if (next) wait = Math.max(5, Math.min(this.pollMs, next.getTime() - now.getTime()));
        }
      } catch (error) {
        this.deps.log.warn({ err: error }, 'scheduled work: could not read the schedule; trying again');
      }
      if (wait > 0 && this.running && !this.poked) {
        const paused = wakeablePause(wait);
        this.wake = paused.wake;
        await paused.done;
        this.wake = null;
      }
    }
  }

  private begin(work: ClaimedWork): void {
    const id = `${work.kind}\u0000${work.key}`;
    if (this.inFlight.has(id)) return; // a run here outlived its lease (a step deaf to its signal): it stays leased, and runs once that one ends
    if ((this.lanes.get(work.lane) ?? 0) >= this.options.perLane) {
      // the lane filled up here since the claim asked (a run began meanwhile): give it back, due as it was
      void this.deps.store.release(work, this.owner).catch(() => undefined);
      return;
    }
    this.lanes.set(work.lane, (this.lanes.get(work.lane) ?? 0) + 1);
    const run = this.run(work).finally(() => {
      this.inFlight.delete(id);
      const left = (this.lanes.get(work.lane) ?? 1) - 1;
      if (left > 0) this.lanes.set(work.lane, left);
      else this.lanes.delete(work.lane);
      this.poke(); // a slot is free
    });
    this.inFlight.set(id, run);
  }

  private async run(work: ClaimedWork): Promise<void> {
    const { store, clock, log } = this.deps;
    const handler = this.handlers.get(work.kind);
    const signal = this.abort.signal;
    let next: Date | null;
    try {
      if (!handler) throw new Error(`no handler for scheduled work of kind ${work.kind}`);
      next = await handler.run(work, signal);
    } catch (error) {
      if (!this.running) {
        // stopped mid-run: give the row back as it was, so a restart runs it at once, not after the lease
        await store.release(work, this.owner).catch(() => undefined);
        return;
      }
      next = new Date(clock.now().getTime() + Math.min(60_000, FAILED_RUN_MS * 2 ** Math.min(6, work.runs - 1)));
      log.warn({ err: error, kind: work.kind, key: work.key, runs: work.runs }, 'scheduled work failed; looking again later');
    }
    await store.finish(work, next, this.owner).catch((error: unknown) => log.warn({ err: error, kind: work.kind, key: work.key }, 'scheduled work: could not record a run; it runs again after its lease'));
  }
}
