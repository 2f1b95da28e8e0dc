import { BehaviorSubject, filter, firstValueFrom, race, timer, type Observable, type Subscription } from 'rxjs';
import type { AppendedTypes } from './port.ts';

/**
 * How a follower of the store (projection runner, reactor runner) sleeps: until its poll interval
 * passes (appends by other processes), an append through this process arrives, or it is stopped.
 */
export class WakeUp {
  private readonly ticks = new BehaviorSubject(0);
  private subscription: Subscription | undefined;
  private stopped = false;

  constructor(private readonly appended$: Observable<unknown>) {}

  /** Wakes for in-process appends that wrote one of `types` (and for stop and the poll interval). */
  static forTypes(appended: Observable<AppendedTypes>, types: readonly string[]): WakeUp {
    const handled = new Set(types);
    return new WakeUp(appended.pipe(filter((a) => a.types.some((t) => handled.has(t)))));
  }

  start(): void {
    this.stopped = false;
    this.subscription = this.appended$.subscribe(() => this.ticks.next(this.ticks.value + 1));
  }

  stop(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
    this.ticks.next(this.ticks.value + 1);
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
