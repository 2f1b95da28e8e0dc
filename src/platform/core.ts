import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from './config.ts';
import type { EventStore, Position } from './eventstore/port.ts';
import type { Clock } from './ports/clock.ts';
import type { Ids } from './ports/ids.ts';

/** Read-your-writes: a route's answer waits until the named read models show its own append. */
export interface ReadYourWrites {
  /** resolves true once every named read model (all by default) has passed `position`, false after `timeoutMs` */
  caughtUp(position: Position, timeoutMs?: number, names?: readonly string[]): Promise<boolean>;
}

/**
 * What the composition root (src/service.ts) builds once and any module may name in its
 * dependencies. A module takes the members it uses (`Pick<Core, …>`), never the whole root.
 */
export interface Core {
  config: Config;
  log: Logger;
  store: EventStore;
  readModels: DataSource;
  /** read-your-writes for routes (the root's projection runner) */
  projections: ReadYourWrites;
  clock: Clock;
  ids: Ids;
}
