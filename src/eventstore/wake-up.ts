import { BehaviorSubject, filter, firstValueFrom, race, timer, type Observable, type Subscription } from 'rxjs';

/**
 * How a follower of the store (projection runner, reactor runner) sleeps: until its poll interval
 * passes (appends by other processes), an append through this process arrives, or it is stopped.
 */
export class WakeUp {
  private readonly ticks = new BehaviorSubject(0);
  private subscription: Subscription | undefined;
  private stopped = false;

  constructor(private readonly appended$: Observable<unknown>) {}

  start(): void {
    this.stopped = false;
    this.subscription = this.appended$.subscribe(() => this.ticks.next(this.ticks.value + 1));
  }

  stop(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
    this.ticks.next(this.ticks.value + 1);
  }

  /** Until `ms` pass, an in-process append arrives, or stop. */
  async sleep(ms: number): Promise<void> {
    const seen = this.ticks.value;
    await firstValueFrom(race(timer(ms), this.ticks.pipe(filter((n) => n !== seen))));
  }

  /** Until `ms` pass or stop (a retry backoff that appends must not cut short). */
  async backoff(ms: number): Promise<void> {
    if (this.stopped) return;
    await firstValueFrom(race(timer(ms), this.ticks.pipe(filter(() => this.stopped))));
  }
}
