import type { EntitySchema, MigrationInterface } from 'typeorm';
import type { Route } from '../http/route.ts';
import type { Projector } from '../readmodel/projector.ts';
import type { Reactor } from '../reactors/reactor.ts';
import type { SapiClientGate } from './http/caller.ts';
import type { SapiRoute } from './http/route.ts';

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
  /** admits a token's client (enabled, allowed address, family not revoked); one part has it */
  gate?: SapiClientGate;
}
