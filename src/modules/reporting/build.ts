import { endUserStatistics } from '../../../commands/reporting/eusr.ts';
import type { ReportableExchange } from '../../../commands/reporting/item.ts';
import type { ReportPeriod } from '../../../commands/reporting/period.ts';
import { transactionStatistics } from '../../../commands/reporting/tsr.ts';
import { eusrXml, tsrXml, type Reporter } from './xml.ts';

export interface MonthlyReports {
  eusr: string;
  tsr: string;
}

/** The EUSR and TSR of `period` from the documents exchanged in it (zero reports when there are none). */
export function buildReports(exchanges: readonly ReportableExchange[], period: ReportPeriod, reporter: Reporter): MonthlyReports {
  return {
    eusr: eusrXml(endUserStatistics(exchanges), period, reporter),
    tsr: tsrXml(transactionStatistics(exchanges, reporter.seatId), period, reporter),
  };
}
