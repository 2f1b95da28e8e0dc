import { sapiDocuments } from '../../../../projections/sapi-documents/projector.ts';
import { ScheduledWorker, scheduleStore, type Scheduled } from '../../../platform/schedule/index.ts';
import type { SapiDeps } from '../deps.ts';
import type { SapiPart } from '../part.ts';
import { sapiFsFilingReactor, sapiFsVerdictReactor, sapiPeppolReactor } from './reactors.ts';
import { sapiScheduleHandlers } from './schedule.ts';
import { sendRoute } from './send.ts';
import { receiptRoute, statusRoute } from './status.ts';

/** Steps in flight on one instance, and per receiver (as native delivery). */
const CONCURRENCY = 16;
const PER_RECEIVER = 8;

/** SAPI-SK: send, status and the outbound Peppol and FS legs (docs/sapi.md, Sending and Status), made by a scheduled worker. */
export function sapiOutboundPart(deps: SapiDeps): SapiPart {
  const { delivery } = deps.config;
  const handlers = sapiScheduleHandlers(deps, {
    policy: { maxAttempts: delivery.maxAttempts, retryBaseMs: delivery.retryBaseMs }, attemptTimeoutMs: delivery.attemptTimeoutMs,
    deadlineMs: delivery.fsVerdictDeadlineMs,
  });
  const worker = new ScheduledWorker({ store: scheduleStore(deps.readModels), clock: deps.clock, log: deps.log }, handlers, {
    concurrency: CONCURRENCY, perLane: PER_RECEIVER, soleInstance: deps.soleInstance,
  });
  const scheduling = { schedule: (rows: Scheduled[]) => worker.add(rows), now: () => deps.clock.now() };
  return {
    sapiRoutes: [sendRoute(deps), statusRoute(deps), receiptRoute(deps)],
    projectors: [sapiDocuments],
    reactors: [sapiPeppolReactor(scheduling), sapiFsFilingReactor(scheduling), sapiFsVerdictReactor({ ...scheduling, deadlineMs: delivery.fsVerdictDeadlineMs })],
    workers: [worker],
  };
}
