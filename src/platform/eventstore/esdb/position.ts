import { START as ESDB_START, type Position as EsdbPosition, type ReadPosition } from '@eventstore/db-client';
import { START, type Position } from '../port.ts';

/*
 * EventStoreDB orders $all by its transaction-log position (commit, prepare). Both are
 * non-negative 64-bit numbers, so 20 zero-padded digits each make plain string order equal to
 * log order, and START ('') sorts before all of them.
 */

const WIDTH = 20;
const PATTERN = /^(\d{20}):(\d{20})$/;

export function encodePosition(position: EsdbPosition): Position {
  return `${position.commit.toString().padStart(WIDTH, '0')}:${position.prepare.toString().padStart(WIDTH, '0')}`;
}

export function decodePosition(position: Position): EsdbPosition {
  const match = PATTERN.exec(position);
  if (!match?.[1] || !match[2]) throw new RangeError(`not an EventStoreDB position: ${JSON.stringify(position)}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}

export function toReadPosition(position: Position): ReadPosition {
  return position === START ? ESDB_START : decodePosition(position);
}
