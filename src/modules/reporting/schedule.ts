import type { CheckedReport, ReportRetryPolicy } from '../../../commands/reporting/month.ts';
import { previousMonth, reportPeriod, sendingWindow } from '../../../commands/reporting/period.ts';
import type { PeppolReportKind } from '../../../events/reporting.ts';
import type { Core } from '../../platform/core.ts';
import type { Scheduled, ScheduleHandler } from '../../platform/schedule/index.ts';
import { onMonth, readMonth } from './month-stream.ts';
import { previewReports } from './preview.ts';
import { nextAttemptOf, REPORT_KINDS, sendReport, type SendDeps } from './send.ts';
import type { ReportValidation, ReportValidator } from './validate.ts';

export const PEPPOL_REPORTING_MONTHLY = 'peppol-reporting-monthly';

/** The one row of the monthly work: due now (at start), it says itself when to look again. */
export const monthlyRow = (due: Date): Scheduled => ({ kind: PEPPOL_REPORTING_MONTHLY, key: 'monthly', lane: 'peppol-reporting', ref: '', due_at: due });

/**
 * The month's last messages are projected into the reporting read model within moments; the
 * reports are built a little after midnight so that none is left out.
 */
const SETTLE_MS = 10 * 60_000;

type Deps = SendDeps & Pick<Core, 'readModels' | 'log'> & { validator: () => Promise<ReportValidator>; policy: ReportRetryPolicy };

const checked = (xml: string, check: ReportValidation): CheckedReport => ({
  xml, valid: check.valid, errors: check.errors.map((f) => ({ rule: f.rule, location: f.location, message: f.message })),
});

/** The first moment the next month's reports may be built. */
function nextBuild(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) + SETTLE_MS);
}

/**
 * Each month, from the 1st (UTC) to the 15th: the month before is built once from the reporting
 * read model (zero reports when nothing moved), each report checked with its official XSD and
 * Schematron (one that fails is kept with its findings and never sent), and each valid report sent
 * to the reporting receiver, a failed attempt retried when the stream says (commands/reporting/month.ts).
 * A month whose window passed with the service down is not built late: the operator sees it missing.
 */
export function monthlyReports(deps: Deps): ScheduleHandler {
  return {
    kind: PEPPOL_REPORTING_MONTHLY,
    async run(work, signal) {
      const now = deps.clock.now();
      const month = previousMonth(now);
      const window = sendingWindow(month);
      const period = reportPeriod(month);
      if (!window || !period) throw new Error(`no reporting period for ${month}`);
      const settled = window.opens.getTime() + SETTLE_MS;
      if (now.getTime() < settled) return new Date(settled);
      let state = await readMonth(deps, month);
      if (state.month === null) {
        if (now.getTime() >= window.closes.getTime()) return nextBuild(now);
        const { reports, checks } = await previewReports(deps.readModels, period, deps.config.delivery.serviceProviderId, await deps.validator());
        const built: Record<PeppolReportKind, CheckedReport> = { eusr: checked(reports.eusr, checks.eusr), tsr: checked(reports.tsr, checks.tsr) };
        state = await onMonth(deps, month, { type: 'BuildReports', month, reports: built, at: now.toISOString() }, 'peppol-reporting', work.ref || undefined);
        for (const kind of REPORT_KINDS) {
          const report = state.reports[kind];
          if (report && report.valid !== true) deps.log.error({ month, kind, errors: report.errors }, 'Peppol report fails its rules (or they are missing): kept, not sent');
        }
      }
      const later: Date[] = [];
      for (const kind of REPORT_KINDS) {
        const due = nextAttemptOf(state, kind);
        if (due === null) continue;
        if (due !== 'now' && due.getTime() > deps.clock.now().getTime()) {
          later.push(due);
          continue;
        }
        state = await sendReport(deps, month, kind, state, deps.policy, signal);
        const after = state.reports[kind];
        if (after?.status === 'sent') deps.log.info({ month, kind, message_id: after.message_id }, 'Peppol report sent');
        else deps.log.warn({ month, kind, message_id: after?.message_id, attempts: after?.attempts, retry_at: after?.retry_at, reason: after?.last_error }, after?.status === 'failed' ? 'Peppol report not sent: given up' : 'Peppol report not sent yet: retried when due');
        const again = nextAttemptOf(state, kind);
        if (again instanceof Date) later.push(again);
      }
      return later.length > 0 ? new Date(Math.min(...later.map((d) => d.getTime()))) : nextBuild(now);
    },
  };
}
