import { sapiClients } from '../../../../projections/sapi-clients/projector.ts';
import { sapiClientRoutes } from './client-routes.ts';
import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';
import { sapiClientGate } from './gate.ts';
import { sapiAuthRoutes } from './routes.ts';

/**
 * SAPI-SK: credentials (the native routes that install and manage them), tokens (/sapi/auth/*),
 * the read model both use, and the gate every /sapi request passes.
 */
export function sapiAuthPart(deps: SapiDeps): SapiPart {
  const gate = sapiClientGate(deps);
  const withGate = { ...deps, gate };
  return {
    routes: sapiClientRoutes(withGate),
    sapiRoutes: sapiAuthRoutes(withGate),
    projectors: [sapiClients],
    gate,
  };
}
