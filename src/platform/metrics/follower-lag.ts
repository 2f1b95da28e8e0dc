import type { EventStore, Position, RecordedEvent } from '../eventstore/port.ts';
import type { FollowerLag } from './metrics.ts';

const LAG_CAP = 1000;

interface Follower {
  kind: FollowerLag['kind'];
  name: string;
  position: Position;
  /** the event types it acts on: only those count as work still to do */
  handles: readonly string[];
}

/**
 * How far each follower is behind: the events of the types it handles after its position (within
 * the next LAG_CAP events of the log) and the age of the first of them. Events of other types do
 * not count: a reactor saves its checkpoint past them only when it next wakes, so an idle one
 * would look behind forever. Followers at one position share one read (data left out), and most
 * are at the head, where the read is empty.
 */
export async function followerLags(store: Pick<EventStore, 'readAll'>, followers: readonly Follower[], now: Date): Promise<FollowerLag[]> {
  const reads = new Map<Position, Promise<RecordedEvent[]>>();
  const after = (position: Position) => {
    let read = reads.get(position);
    if (!read) reads.set(position, (read = store.readAll(position, LAG_CAP, [])));
    return read;
  };
  return Promise.all(followers.map(async (f) => {
    const handles = new Set(f.handles);
    const pending = (await after(f.position)).filter((e) => handles.has(e.type));
    const first = pending[0];
    return { kind: f.kind, name: f.name, events: pending.length, seconds: first ? Math.max(0, (now.getTime() - first.recordedAt.getTime()) / 1000) : 0 };
  }));
}
