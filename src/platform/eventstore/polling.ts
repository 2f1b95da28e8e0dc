import { Observable } from 'rxjs';
import type { Position, RecordedEvent } from './port.ts';

type ReadPage = (after: Position, limit: number) => Promise<RecordedEvent[]>;

interface PollingOptions {
  /** events fetched per query while catching up */
  pageSize: number;
  /** how long to sleep when caught up, unless `wake$` fires first */
  pollIntervalMs: number;
  /** called with the loop's promise, so an owner can await running loops on close */
  track?: (loop: Promise<void>) => void;
}

/**
 * A subscription for stores that can only be polled: catches up page by page (the next page is
 * fetched only after the previous one was emitted, so a slow consumer never has more than a page
 * in memory), then sleeps `pollIntervalMs` between polls, or less when `wake$` fires. A wake that
 * arrives during a query is remembered, so the next poll follows at once. Unsubscribing stops it.
 */
export function pollingSubscription(
  readPage: ReadPage,
  wake$: Observable<unknown>,
  after: Position,
  options: PollingOptions,
): Observable<RecordedEvent> {
  return new Observable<RecordedEvent>((subscriber) => {
    let position = after;
    let stopped = false;
    let wakePending = false;
    let wakeUp: (() => void) | undefined;

    const wakeSubscription = wake$.subscribe(() => {
      wakePending = true;
      wakeUp?.();
    });

    const sleep = (): Promise<void> =>
      new Promise<void>((resolve) => {
        if (wakePending || stopped) return resolve();
        const done = (): void => {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        };
        const timer = setTimeout(done, options.pollIntervalMs);
        wakeUp = done;
      });

    const loop = (async () => {
      while (!stopped) {
        wakePending = false;
        const page = await readPage(position, options.pageSize);
        for (const event of page) {
          // next() may unsubscribe synchronously (take(n)): emit nothing after that
          if (stopped) return;
          subscriber.next(event);
          position = event.position;
        }
        if (page.length < options.pageSize) await sleep();
      }
    })().catch((error: unknown) => {
      if (!stopped) subscriber.error(error);
    });
    options.track?.(loop);

    return () => {
      stopped = true;
      wakeSubscription.unsubscribe();
      wakeUp?.();
    };
  });
}
