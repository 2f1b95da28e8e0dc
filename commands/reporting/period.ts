/**
 * A Peppol Reporting period: one calendar month in UTC (the spec's report period is whole days,
 * StartDate and EndDate inclusive, without a zone; OpenPeppol reads them as UTC).
 */
export interface ReportPeriod {
  /** YYYY-MM */
  month: string;
  /** first day, YYYY-MM-DD */
  startDate: string;
  /** last day, YYYY-MM-DD */
  endDate: string;
  /** first instant of the month (inclusive) */
  from: Date;
  /** first instant of the next month (exclusive) */
  to: Date;
}

/** The period of `month` (YYYY-MM); null when it is not a month. */
export function reportPeriod(month: string): ReportPeriod | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return null;
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  const from = new Date(Date.UTC(year, index, 1));
  const to = new Date(Date.UTC(year, index + 1, 1));
  const last = new Date(to.getTime() - 86_400_000);
  return { month, startDate: from.toISOString().slice(0, 10), endDate: last.toISOString().slice(0, 10), from, to };
}

/** The month before the one `at` falls in (UTC): what the monthly reports cover. */
export function previousMonth(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

/**
 * When the reports of `month` are sent: from the 1st of the month after (00:00 UTC) to the end of
 * its 15th (`closes` is exclusive), as the Peppol Reporting specifications ask.
 */
export function sendingWindow(month: string): { opens: Date; closes: Date } | null {
  const period = reportPeriod(month);
  if (!period) return null;
  const opens = period.to;
  return { opens, closes: new Date(Date.UTC(opens.getUTCFullYear(), opens.getUTCMonth(), 16)) };
}
