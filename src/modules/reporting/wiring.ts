import { peppolReportMonths } from '../../../projections/peppol-report-months/projector.ts';
import { peppolReporting } from '../../../projections/peppol-reporting/projector.ts';
import type { Core } from '../../platform/core.ts';
import { ScheduledWorker, scheduleStore } from '../../platform/schedule/index.ts';
import type { PeppolNetwork } from '../delivery/index.ts';
import type { Module, Worker } from '../module.ts';
import { reportingRoutes } from './routes.ts';
import { monthlyReports, monthlyRow } from './schedule.ts';
import { createReportValidator, type ReportValidator } from './validate.ts';

export interface ReportingDeps extends Pick<Core, 'config' | 'log' | 'store' | 'readModels' | 'clock' | 'ids'> {
  /** the Peppol network the reports go out on (the sandbox's, or AS4) */
  network: PeppolNetwork;
  /** our Access Point's SPIS participant: the reports' sender */
  ourSpis: string;
  /** the only process on the database (PGlite): the schedule's stale leases are released at start */
  soleInstance?: boolean;
}

/**
 * Peppol Reporting (EUSR and TSR, monthly to OpenPeppol): the read model of what our Access Point
 * sent and received, each reported month's stream and its read model, the monthly schedule that
 * builds, checks and sends the reports (PEPPOL_REPORTING_SCHEDULE=off leaves it out), and the
 * operator's route. `npm run cli -- reporting preview` builds a month's reports on demand.
 */
export function reportingModule(deps: ReportingDeps): Module {
  let validator: Promise<ReportValidator> | undefined;
  const worker = new ScheduledWorker({ store: scheduleStore(deps.readModels), clock: deps.clock, log: deps.log }, [
    monthlyReports({
      ...deps,
      // made at the first build (compiling the Schematron takes a moment), kept until the service stops
      validator: () => (validator ??= createReportValidator({ artifactsDir: deps.config.validationArtifactsDir })),
      policy: { retryBaseMs: deps.config.delivery.retryBaseMs },
    }),
  ], { concurrency: 1, perLane: 1, soleInstance: deps.soleInstance });
  const monthly: Worker = {
    start() {
      worker.start();
      // due at once: the run finds the month done, or builds and sends what is left of it
      worker.add([monthlyRow(deps.clock.now())]).catch((error: unknown) => deps.log.warn({ err: error }, 'Peppol Reporting: could not schedule the monthly run; it is scheduled at the next start'));
    },
    async stop() {
      await worker.stop();
      if (validator) (await validator.catch(() => null))?.close();
      validator = undefined;
    },
  };
  return {
    routes: reportingRoutes(deps),
    projectors: [peppolReporting, peppolReportMonths],
    reactors: [],
    workers: deps.config.delivery.reporting.schedule ? [monthly] : [],
  };
}
