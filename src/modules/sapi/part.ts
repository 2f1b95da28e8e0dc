import type { EntitySchema, MigrationInterface } from 'typeorm';
import type { Route } from '../../doors/native/route.ts';
import type { Projector } from '../../platform/readmodel/projector.ts';
import type { Reactor } from '../../platform/reactors/reactor.ts';
import type { SapiClientGate } from './auth/caller.ts';
import type { SapiRoute } from '../../doors/sapi/route.ts';
import type { Worker } from '../module.ts';

/**
 * One part of the SAPI-SK connector (credentials and tokens, outbound documents, the inbox): what
 * it adds to the module. The module (src/modules/sapi) joins the parts.
 */
export interface SapiPart {
  /** native /api/v1 routes (installing and managing the connector) */
  routes?: Route[];
  /** routes under /sapi */
  sapiRoutes?: SapiRoute[];
  projectors?: Projector[];
  reactors?: Reactor[];
  entities?: EntitySchema[];
  migrations?: (new () => MigrationInterface)[];
  /** long-running loops (the outbound legs' scheduled worker) */
  workers?: Worker[];
  /** admits a token's client (enabled, allowed address, family not revoked); one part has it */
  gate?: SapiClientGate;
}
