import { randomUUID } from 'node:crypto';
import type { EventStore } from '../src/platform/eventstore/port.ts';

/**
 * Append throughput: `writers` concurrent loops, each appending one event at a time to a new
 * stream ('no_stream'), for `durationMs`. New streams keep writers from conflicting, so this
 * measures the store's write path (one round trip and one commit per append), not contention.
 */
export async function benchAppends(
  store: EventStore,
  writers: number,
  durationMs: number,
): Promise<{ appendsPerSecond: number; total: number }> {
  const started = performance.now();
  const deadline = started + durationMs;
  let total = 0;

  const writer = async (w: number): Promise<void> => {
    for (let n = 0; performance.now() < deadline; n++) {
      await store.append(
        `bench-${randomUUID()}`,
        [{ id: randomUUID(), type: 'BenchAppended', data: { writer: w, n }, metadata: { actor: { type: 'system', id: 'bench' } } }],
        'no_stream',
      );
      total++;
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));

  const seconds = (performance.now() - started) / 1000;
  return { appendsPerSecond: Math.round(total / seconds), total };
}
