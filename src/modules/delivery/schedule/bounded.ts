/**
 * One transport attempt, bounded: it fails with `timedOut()` once `timeoutMs` have passed, and
 * ends at once (with the abort's reason) when `signal` aborts (the service stops, the lease ends).
 * The attempt is told through the signal it is given; one that does not listen is left behind,
 * never waited for.
 */
export function bounded<T>(attempt: (signal: AbortSignal) => Promise<T>, options: { signal: AbortSignal; timeoutMs: number; timedOut: () => Error }): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const both = AbortSignal.any([options.signal, timeout]);
  return new Promise<T>((resolve, reject) => {
    const end = () => reject(options.signal.aborted ? options.signal.reason : options.timedOut());
    if (both.aborted) return end();
    both.addEventListener('abort', end, { once: true });
    attempt(both).then(resolve, reject).finally(() => both.removeEventListener('abort', end));
  });
}
