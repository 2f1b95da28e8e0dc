import { sapiDocuments } from '../../../../projections/sapi-documents/projector.ts';
import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';
import { sapiFsFilingReactor, sapiFsVerdictReactor, sapiPeppolReactor } from './reactors.ts';
import { sendRoute } from './send.ts';
import { statusRoute } from './status.ts';

/** SAPI-SK: send, status and the outbound Peppol and FS legs (docs/sapi.md, Sending and Status). */
export function sapiOutboundPart(deps: SapiDeps): SapiPart {
  const { delivery } = deps.config;
  const policy = { maxAttempts: delivery.maxAttempts, retryBaseMs: delivery.retryBaseMs };
  return {
    sapiRoutes: [sendRoute(deps), statusRoute(deps)],
    projectors: [sapiDocuments],
    reactors: [
      sapiPeppolReactor(deps, policy),
      sapiFsFilingReactor(deps, policy),
      sapiFsVerdictReactor(deps, Math.max(10, Math.min(500, delivery.fsSandboxDelayMs))),
    ],
  };
}
