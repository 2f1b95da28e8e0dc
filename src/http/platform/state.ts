import type { Logger } from 'pino';

/** What the platform middleware keeps on `ctx.state` for the rest of the request. */
export interface PlatformState {
  requestId: string;
  log: Logger;
}
