import { confirmPeppolDelivery } from './delivery.ts';
import type { InvoicingDeps } from '../invoices/index.ts';
import type { UsageCounts } from '../usage/index.ts';
import { invoiceDeliveryRoutes } from './routes.ts';
import { toolRoutes } from './tool-routes.ts';
import type { FsAuthority } from './fs/fs-authority.ts';
import type { ParticipantDirectory } from './peppol/participants.ts';
import type { PeppolNetwork } from './peppol/peppol-network.ts';
import { sandboxDeliveryStatusReactor } from './sandbox/delivery-status.ts';
import { as4DeliveryStatusReactor } from './peppol/as4-delivery-status.ts';
import { fsFilingReactor } from './reactors/fs-filing.ts';
import { fsVerdictReactor } from './reactors/fs-verdicts.ts';
import { peppolDeliveryReactor } from './reactors/peppol-delivery.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';
import type { Module } from '../module.ts';

export interface DeliveryDeps extends InvoicingDeps {
  validator: ValidatorSource;
  /** the Peppol network (corners 2-3) and the Financial Administration's corner 5 */
  network: PeppolNetwork;
  fs: FsAuthority;
  /** participant lookup for POST /tools/peppol-check */
  participants: ParticipantDirectory;
  /** the monthly invoice counts a send adds to */
  usage: UsageCounts;
}

/** Delivery: send and mark-sent, Peppol delivery, the FS filing and its verdicts, and the delivery statuses (the sandbox's, or AS4 receipts). */
export function deliveryModule(deps: DeliveryDeps): Module {
  const { delivery } = deps.config;
  const policy = { maxAttempts: delivery.maxAttempts, retryBaseMs: delivery.retryBaseMs };
  return {
    routes: [...invoiceDeliveryRoutes(deps), ...toolRoutes(deps)],
    projectors: [],
    reactors: [
      peppolDeliveryReactor({ ...deps, policy }),
      fsFilingReactor({ ...deps, policy, config: delivery }),
      fsVerdictReactor({ ...deps, pollMs: Math.max(10, Math.min(500, delivery.fsSandboxDelayMs)) }),
      // over AS4 the verified receipt is the delivery status; the sandbox's would wait on a sender in this database
      deps.config.peppol.network === 'as4'
        ? as4DeliveryStatusReactor(deps)
        : sandboxDeliveryStatusReactor({ clock: deps.clock, confirm: (status) => confirmPeppolDelivery(deps, status) }, delivery.sandboxDeliveryStatusDelayMs),
    ],
  };
}
