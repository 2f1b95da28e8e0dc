import type { EventStore, Position } from '../eventstore/port.ts';
import type { FollowerLag } from './metrics.ts';

export const LAG_CAP = 1000;

export interface Follower {
  kind: FollowerLag['kind'];
  name: string;
  position: Position;
}

/**
 * How far each follower is behind the head of the log: events after its position (up to
 * LAG_CAP) and the age of the first of them. Followers at one position share one read, and most
 * are at the head, where the read is empty.
 */
export async function followerLags(store: Pick<EventStore, 'readAll'>, followers: readonly Follower[], now: Date): Promise<FollowerLag[]> {
  const behind = new Map<Position, Promise<{ events: number; seconds: number }>>();
  const at = (position: Position) => {
    let read = behind.get(position);
    if (!read) {
      read = store.readAll(position, LAG_CAP, []).then((events) => ({
        events: events.length,
        seconds: events[0] ? Math.max(0, (now.getTime() - events[0].recordedAt.getTime()) / 1000) : 0,
      }));
      behind.set(position, read);
    }
    return read;
  };
  return Promise.all(followers.map(async (f) => ({ kind: f.kind, name: f.name, ...(await at(f.position)) })));
}
