import { reportingMonthDecider, type ReportingCommand, type ReportingMonthState } from '../../../commands/reporting/month.ts';
import { peppolReportStream } from '../../../events/reporting.ts';
import type { Core } from '../../platform/core.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';

type Deps = Pick<Core, 'store' | 'ids'>;

/** A reported month as its stream holds it. */
export async function readMonth(deps: Pick<Core, 'store'>, month: string): Promise<ReportingMonthState> {
  return (await readAndFold(deps.store, peppolReportStream(month), reportingMonthDecider)).state;
}

/**
 * Decides a command on a reported month's stream. The schedule (one run at a time per month) and
 * an incoming MLS may write at once: a lost race is decided again on the newer state.
 */
export async function onMonth(deps: Deps, month: string, command: ReportingCommand, component: string, causationId?: string): Promise<ReportingMonthState> {
  const handled = await handleCommand(deps, peppolReportStream(month), reportingMonthDecider, command, {
    metadata: { causationId, correlationId: causationId, actor: { type: 'system', id: component } },
    expected: { retry: { onVersionConflict: 5 } },
  });
  return handled.state;
}
