import type { Logger } from 'pino';
import type { InvoicingDeps } from '../invoices/index.ts';
import type { UsageCounts } from '../usage/index.ts';
import { invoiceDeliveryRoutes } from './routes.ts';
import { toolRoutes } from './tool-routes.ts';
import { peppolReceiptRoute } from './receipt-route.ts';
import type { FsAuthority } from './fs/fs-authority.ts';
import type { ParticipantDirectory } from './peppol/participants.ts';
import type { PeppolNetwork } from './peppol/peppol-network.ts';
import { mlsAttempts, mlsSendReactor } from './mls/send-mls.ts';
import { fsFilingReactor } from './reactors/fs-filing.ts';
import { fsVerdictReactor } from './reactors/fs-verdicts.ts';
import { peppolDeliveryReactor } from './reactors/peppol-delivery.ts';
import { fsFilings } from './schedule/fs-filings.ts';
import { fsVerdicts } from './schedule/fs-verdicts.ts';
import { peppolAttempts } from './schedule/peppol-attempts.ts';
import { ScheduledWorker, scheduleStore, type Scheduled } from '../../platform/schedule/index.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';
import type { Module } from '../module.ts';

export interface DeliveryDeps extends InvoicingDeps {
  log: Logger;
  validator: ValidatorSource;
  /** the Peppol network (corners 2-3) and the Financial Administration's corner 5 */
  network: PeppolNetwork;
  fs: FsAuthority;
  /** participant lookup for POST /tools/peppol-check */
  participants: ParticipantDirectory;
  /** the monthly invoice counts a send adds to */
  usage: UsageCounts;
  /** our Access Point's SPIS participant: the MLS we ask for come to it */
  ourSpis: string;
  /** the only process on the database (PGlite): the scheduled work's stale leases are released at start */
  soleInstance?: boolean;
}

/** Runs in flight on one instance, all delivery work together, and per receiver. */
const CONCURRENCY = 32;
const PER_RECEIVER = 8;

/**
 * Delivery: send and mark-sent, Peppol delivery, the FS filing and its verdicts, and the MLS our
 * receiving side owes (src/modules/mls: a sent invoice is delivered or rejected by the MLS that comes
 * back). The reactors only schedule;
 * every attempt is made by the scheduled worker when due (src/platform/schedule), one at a time
 * per row, so nothing waits on a receiver but that receiver's own invoices, and the schedule
 * survives restarts and is shared by every instance.
 */
export function deliveryModule(deps: DeliveryDeps): Module {
  const { delivery } = deps.config;
  const policy = { maxAttempts: delivery.maxAttempts, retryBaseMs: delivery.retryBaseMs };
  const attemptTimeoutMs = delivery.attemptTimeoutMs;
  const pollMs = Math.max(10, Math.min(500, delivery.fsSandboxDelayMs));
  // the sandbox's receiving Access Point answers after PEPPOL_SANDBOX_DELIVERY_DELAY_MS; a real one's MLS goes at once
  const firstMlsDelayMs = deps.config.peppol.network === 'as4' ? 0 : delivery.sandboxDeliveryStatusDelayMs;
  const worker = new ScheduledWorker({ store: scheduleStore(deps.readModels), clock: deps.clock, log: deps.log }, [
    peppolAttempts({ ...deps, policy, attemptTimeoutMs }),
    fsFilings({ ...deps, policy, attemptTimeoutMs, config: delivery }),
    fsVerdicts({ ...deps, pollMs, attemptTimeoutMs, deadlineMs: delivery.fsVerdictDeadlineMs }),
    mlsAttempts({ ...deps, policy, attemptTimeoutMs, firstDelayMs: firstMlsDelayMs }),
  ], { concurrency: CONCURRENCY, perLane: PER_RECEIVER, soleInstance: deps.soleInstance });
  const scheduling = { schedule: (rows: Scheduled[]) => worker.add(rows), now: () => deps.clock.now() };
  return {
    routes: [...invoiceDeliveryRoutes(deps), peppolReceiptRoute(deps), ...toolRoutes(deps)],
    projectors: [],
    reactors: [
      peppolDeliveryReactor(scheduling),
      fsFilingReactor(scheduling),
      fsVerdictReactor({ ...scheduling, pollMs }),
      // delivered or rejected is the receiving Access Point's MLS (src/modules/mls), in the sandbox too
      mlsSendReactor(scheduling),
    ],
    workers: [worker],
  };
}
