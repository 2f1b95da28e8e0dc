// How far the service's projectors and reactors are behind, from its /metrics (loopback peers may
// read it without a token): the follower_lag_events gauges summed per kind.

export interface Lag {
  projector: number;
  reactor: number;
}

/** The summed lags, or null when /metrics does not answer. */
export async function followerLag(root: string): Promise<Lag | null> {
  try {
    const response = await fetch(`${root}/metrics`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return null;
    const lag: Lag = { projector: 0, reactor: 0 };
    for (const line of (await response.text()).split('\n')) {
      const match = /^follower_lag_events\{[^}]*kind="(projector|reactor)"[^}]*\}\s+(\S+)/.exec(line);
      if (match) lag[match[1] as keyof Lag] += Number(match[2]);
    }
    return lag;
  } catch {
    return null;
  }
}

/** Polls until both lags are 0; resolves with the ms it took, or null after `withinMs`. */
export async function lagZero(root: string, withinMs: number, which: (keyof Lag)[] = ['projector', 'reactor']): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const lag = await followerLag(root);
    if (lag && which.every((k) => lag[k] === 0)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}
