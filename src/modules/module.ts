import type { EntitySchema, MigrationInterface } from 'typeorm';
import type { Route } from '../doors/native/route.ts';
import type { Projector } from '../platform/readmodel/projector.ts';
import type { Reactor } from '../platform/reactors/reactor.ts';
import type { StoredEventRewrite } from '../platform/eventstore/rewrite.ts';
import type { SapiClientGate } from './sapi/index.ts';
import type { SapiRoute } from '../doors/sapi/route.ts';

/**
 * A capability as the composition root sees it: its HTTP routes, the read models it keeps and the
 * side effects it runs. A module is a function of the narrow dependencies it declares; only the
 * root (src/service.ts) calls it.
 */
export interface Module {
  routes: Route[];
  projectors: Projector[];
  reactors: Reactor[];
  /** TypeORM entities its queries use (most read models query in SQL and need none) */
  entities?: EntitySchema[];
  /** tables of its own that are not read models (a queue, a log): created with the read models' migrations */
  migrations?: (new () => MigrationInterface)[];
  /** stored events it rewrites in place, once per store, at start: only to take a plaintext secret out of the log (src/platform/eventstore/rewrite.ts) */
  rewrites?: StoredEventRewrite[];
  /** long-running loops that are neither projectors nor reactors (the webhook delivery worker): started after the reactors, stopped before them */
  workers?: Worker[];
  /** the SAPI-SK front door's routes (under /sapi) and what admits its callers; only the SAPI module has them */
  sapi?: { routes: SapiRoute[]; gate?: SapiClientGate };
}

export interface Worker {
  start(): void;
  stop(): Promise<void>;
}
