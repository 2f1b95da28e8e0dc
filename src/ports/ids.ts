import { randomUUID } from 'node:crypto';

/** New identifiers, as a port: deciders never generate ids themselves. */
export interface Ids {
  next(): string;
}
export const randomIds: Ids = { next: () => randomUUID() };
