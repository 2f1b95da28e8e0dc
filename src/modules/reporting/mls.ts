import { REPORT_KINDS, type MlsResponseCode } from '../../../commands/reporting/month.ts';
import type { PeppolReportKind } from '../../../events/reporting.ts';
import { previousMonth } from '../../../commands/reporting/period.ts';
import { monthOfMessage } from '../../../projections/peppol-report-months/queries.ts';
import { ruleOfIssue } from '../../../commands/mls/answer.ts';
import type { Core } from '../../platform/core.ts';
import type { MlsMatcher } from '../delivery/index.ts';
import { onMonth, readMonth } from './month-stream.ts';

export interface ReportMlsInput {
  /** the MLS's cbc:ReferenceID: the SBDH instance identifier of the message it answers */
  referenced_instance_id: string;
  response_code: MlsResponseCode;
  reasons: { rule?: string; location: string; message: string; reason_code: string }[];
  received_at: string;
}

type Deps = Pick<Core, 'store' | 'ids' | 'readModels'>;

/**
 * The months an answer may be about, most likely first: the one the read model names, else the
 * months whose sending windows are nearest before its arrival (the read model may not have caught
 * up with a send made moments ago).
 */
async function candidateMonths(deps: Deps, messageId: string, receivedAt: string): Promise<string[]> {
  const known = await monthOfMessage(deps.readModels, messageId);
  const at = new Date(Number.isNaN(Date.parse(receivedAt)) ? Date.now() : Date.parse(receivedAt));
  const recent: string[] = [];
  for (let back = 0; back < 3; back++) recent.push(previousMonth(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - back, 1))));
  return [...new Set([...(known ? [known] : []), ...recent])];
}

/** Which of our reports an MLS answered, and whether this answer was the first (a repeat changes nothing). */
export interface ReportMlsMatch {
  month: string;
  kind: PeppolReportKind;
  applied: boolean;
}

/**
 * Keeps OpenPeppol's MLS on the report it answers, when `referenced_instance_id` is the message one
 * of our reports was sent as: which report, and whether it was recorded now (false: a repeat, which
 * changes nothing). null when it answers none of ours. The shape delivery's MlsMatcher needs.
 */
export async function matchReportMls(deps: Deps, mls: ReportMlsInput): Promise<ReportMlsMatch | null> {
  for (const month of await candidateMonths(deps, mls.referenced_instance_id, mls.received_at)) {
    const state = await readMonth(deps, month);
    const kind = REPORT_KINDS.find((k) => state.reports[k]?.message_id === mls.referenced_instance_id);
    if (!kind) continue;
    const before = state.reports[kind]?.mls ?? null;
    const after = await onMonth(deps, month, {
      type: 'RecordMls', message_id: mls.referenced_instance_id, response_code: mls.response_code, reasons: mls.reasons, received_at: mls.received_at,
    }, 'peppol-reporting-mls');
    return { month, kind, applied: before === null && after.reports[kind]?.mls !== null };
  }
  return null;
}

/**
 * Keeps OpenPeppol's MLS on the report it answers: true when `referenced_instance_id` is the
 * message one of our reports was sent as (the answer is recorded on that month's stream; a repeat
 * changes nothing and is still true), false when it answers none of ours.
 */
export async function applyReportMls(deps: Deps, mls: ReportMlsInput): Promise<boolean> {
  return (await matchReportMls(deps, mls)) !== null;
}

/** matchReportMls as the receiving side asks it of an MLS that answers none of our invoices. */
export function reportMlsMatcher(deps: Deps): MlsMatcher {
  return async (mls, receivedAt) => {
    const found = await matchReportMls(deps, {
      referenced_instance_id: mls.referenced_instance_id, response_code: mls.response_code, received_at: receivedAt,
      reasons: mls.issues.map((i) => ({ rule: ruleOfIssue(i.description) ?? undefined, location: i.location, message: i.description, reason_code: i.reason })),
    });
    return found ? { kind: 'report', id: `${found.month}/${found.kind}`, applied: found.applied } : null;
  };
}
