import { sapiInbox } from '../../../../projections/sapi-inbox/projector.ts';
import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';
import { inboxRoutes } from './routes.ts';

/**
 * SAPI-SK: the inbox: list, detail and acknowledge. Documents enter it on the receiving side of
 * our Access Point (src/modules/delivery/inbound.ts), in the same append as the native inbound invoice.
 */
export function sapiInboxPart(deps: SapiDeps): SapiPart {
  return { sapiRoutes: inboxRoutes(deps), projectors: [sapiInbox] };
}
