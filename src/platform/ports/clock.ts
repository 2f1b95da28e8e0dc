/** The time, as a port: deciders get it through commands, tests can pin it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
