import { BehaviorSubject, filter, firstValueFrom, race, timer, type Observable, type Subscription } from 'rxjs';
import { START, type AppendedTypes, type Position } from './port.ts';

/**
 * How a follower of the store (projection runner, reactor runner) sleeps: until its poll interval
 * passes (appends by other processes), an append through this process arrives, or it is stopped.
 */
export class WakeUp {
  private readonly ticks = new BehaviorSubject(0);
  private subscription: Subscription | undefined;
  private stopped = false;
  private highest: Position = START;
  /** where the last idle read reached, and how long it then slept waiting for an announced append */
  private held = { reached: START as Position, ms: 0 };

  constructor(private readonly appended$: Observable<AppendedTypes>) {}

  /** Wakes for in-process appends that wrote one of `types` (and for stop and the poll interval). */
  static forTypes(appended: Observable<AppendedTypes>, types: readonly string[]): WakeUp {
    const handled = new Set(types);
    return new WakeUp(appended.pipe(filter((a) => a.types.some((t) => handled.has(t)))));
  }

  start(): void {
    this.stopped = false;
    this.subscription = this.appended$.subscribe(({ position }) => {
      if (position > this.highest) this.highest = position;
      this.ticks.next(this.ticks.value + 1);
    });
  }

  stop(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
    this.ticks.next(this.ticks.value + 1);
  }

  /**
   * After a read that reached `reached` and found less than a full batch: sleeps until an append
   * arrives (since `mark`), `pollMs` pass, or stop. But when an append that woke this follower was
   * announced beyond `reached`, the read was held back by a transaction still open somewhere (on
   * Postgres, the snapshot's xmin: postgres/position.ts), and no append may come to wake it again:
   * every client may be waiting on this very event (read-your-writes). That transaction ends within
   * milliseconds, so it reads again after 1 ms, then twice as long each time, up to `pollMs`.
   */
  async idle(reached: Position, pollMs: number, mark: number): Promise<void> {
    if (this.highest <= reached) {
      this.held = { reached, ms: 0 };
      return this.sleep(pollMs, mark);
    }
    const ms = reached > this.held.reached || this.held.ms === 0 ? 1 : Math.min(pollMs, this.held.ms * 2);
    this.held = { reached, ms };
    return this.sleep(ms, mark);
  }

  /** What has been appended so far: take it before reading, and sleep `since` it. */
  mark(): number {
    return this.ticks.value;
  }

  /**
   * Until `ms` pass, an in-process append arrives, or stop. With `since` (a mark taken before the
   * read), an append that came while the reader was busy wakes it at once instead of being missed.
   */
  async sleep(ms: number, since = this.ticks.value): Promise<void> {
    if (this.ticks.value !== since) return;
    await firstValueFrom(race(timer(ms), this.ticks.pipe(filter((n) => n !== since))));
  }

  /** Until `ms` pass or stop (a retry backoff that appends must not cut short). */
  async backoff(ms: number): Promise<void> {
    if (this.stopped) return;
    await firstValueFrom(race(timer(ms), this.ticks.pipe(filter(() => this.stopped))));
  }
}
