import { START, type Position } from '../port.ts';

/*
 * Subscriber order on Postgres is (transaction_id, global_position), not global_position alone.
 * A BIGSERIAL value is taken by nextval() when the row is inserted, but rows become visible when
 * their transaction commits, and commit order follows neither nextval order nor xid order: an
 * append that took position 11 can commit before one that took position 10, so a poller that
 * remembered "I have seen up to 11" would never see 10. Instead readers only look at transactions
 * whose xid is below the snapshot's xmin (every one of them has finished, so no row can still
 * appear there) and order by (xid, position); any transaction that commits later has an xid at or
 * above that xmin, so it sorts after everything already delivered.
 *
 * Both numbers are zero-padded to 20 digits (xid8 and bigint both fit), so comparing two
 * positions as plain strings gives the same answer as comparing the pairs, and START ('') sorts
 * before every one of them.
 */

const WIDTH = 20;
const PATTERN = /^(\d{20}):(\d{20})$/;

export interface PgPosition {
  /** transaction id (xid8) as a decimal string */
  transactionId: string;
  /** global_position (bigint) as a decimal string */
  globalPosition: string;
}

export function encodePosition(transactionId: string, globalPosition: string): Position {
  return `${transactionId.padStart(WIDTH, '0')}:${globalPosition.padStart(WIDTH, '0')}`;
}

/** The (xid, position) pair strictly before which nothing is read; START maps to (0, 0). */
export function decodePosition(position: Position): PgPosition {
  if (position === START) return { transactionId: '0', globalPosition: '0' };
  const match = PATTERN.exec(position);
  if (!match?.[1] || !match[2]) throw new RangeError(`not a Postgres event store position: ${JSON.stringify(position)}`);
  return { transactionId: BigInt(match[1]).toString(), globalPosition: BigInt(match[2]).toString() };
}
