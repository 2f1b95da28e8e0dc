import type { DataSource } from 'typeorm';
import type { ReportState } from '../../commands/reporting/month.ts';
import type { PeppolReportKind } from '../../events/reporting.ts';

export const PEPPOL_REPORT_MONTHS = 'peppol-report-months';

/** One report of a month as the admin route shows it: its state on the month's stream, without the XML. */
export interface ReportRow extends Omit<ReportState, 'xml'> {
  month: string;
  kind: PeppolReportKind;
}

type Row = Omit<ReportRow, 'built_at' | 'retry_at' | 'sent_at' | 'mls'> & {
  built_at: Date | string; retry_at: Date | string | null; sent_at: Date | string | null;
  mls_response_code: 'AP' | 'AB' | 'RE' | null; mls_reasons: NonNullable<ReportRow['mls']>['reasons'] | null; mls_received_at: Date | string | null;
};

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

const COLUMNS = `month, kind, status, valid, errors, built_at, message_id, attempts, retry_at, last_error, sent_at, mls_response_code, mls_reasons, mls_received_at`;

function toReport(r: Row): ReportRow {
  return {
    month: r.month, kind: r.kind, status: r.status, valid: r.valid, errors: r.errors, built_at: iso(r.built_at), message_id: r.message_id, attempts: r.attempts,
    retry_at: isoOrNull(r.retry_at), last_error: r.last_error, sent_at: isoOrNull(r.sent_at),
    mls: r.mls_response_code === null ? null : { response_code: r.mls_response_code, reasons: r.mls_reasons ?? [], received_at: iso(r.mls_received_at ?? r.built_at) },
  };
}

/** The reports of the last `limit` months, newest month first (EUSR before TSR). */
export async function reportMonths(db: DataSource, limit: number): Promise<ReportRow[]> {
  const rows: Row[] = await db.query(
    `SELECT ${COLUMNS} FROM peppol_report_months
     WHERE month IN (SELECT DISTINCT month FROM peppol_report_months ORDER BY month DESC LIMIT $1)
     ORDER BY month DESC, kind`,
    [limit],
  );
  return rows.map(toReport);
}

/** The month whose report was sent as `messageId`, if the read model knows it. */
export async function monthOfMessage(db: DataSource, messageId: string): Promise<string | null> {
  const rows: { month: string }[] = await db.query('SELECT month FROM peppol_report_months WHERE message_id = $1', [messageId]);
  return rows[0]?.month ?? null;
}
