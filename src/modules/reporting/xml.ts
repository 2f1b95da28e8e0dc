// The EUSR 1.1 and TSR 1.0 documents (Peppol Reporting), written from their counts.
import type { EusrCounts } from '../../../commands/reporting/eusr.ts';
import type { ReportPeriod } from '../../../commands/reporting/period.ts';
import type { TsrCounts } from '../../../commands/reporting/tsr.ts';
import { newXmlDocument, type XmlElementWriter } from '../../platform/xml/write.ts';

export const EUSR_NS = 'urn:fdc:peppol:end-user-statistics-report:1.1';
export const TSR_NS = 'urn:fdc:peppol:transaction-statistics-report:1.0';
const EUSR_CUSTOMIZATION = 'urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1';
const TSR_CUSTOMIZATION = 'urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0';
const REPORTING_PROFILE = 'urn:fdc:peppol.eu:edec:bis:reporting:1.0';

/** Who reports: our Access Point's Peppol seat id (the CN of its AP certificate, e.g. PSK000123). */
export interface Reporter {
  seatId: string;
}

function header(root: XmlElementWriter, ns: string, customization: string, period: ReportPeriod, reporter: Reporter): void {
  root.ele(ns, 'CustomizationID').txt(customization);
  root.ele(ns, 'ProfileID').txt(REPORTING_PROFILE);
  const head = root.ele(ns, 'Header');
  const span = head.ele(ns, 'ReportPeriod');
  span.ele(ns, 'StartDate').txt(period.startDate);
  span.ele(ns, 'EndDate').txt(period.endDate);
  head.ele(ns, 'ReporterID', { schemeID: 'CertSubjectCN' }).txt(reporter.seatId);
}

function key(parent: XmlElementWriter, ns: string, meta: string, scheme: string, value: string | undefined): void {
  if (value !== undefined) parent.ele(ns, 'Key', { metaSchemeID: meta, schemeID: scheme }).txt(value);
}

/** The End User Statistics Report of `period`. */
export function eusrXml(counts: EusrCounts, period: ReportPeriod, reporter: Reporter): string {
  const ns = EUSR_NS;
  const doc = newXmlDocument(ns, 'EndUserStatisticsReport');
  header(doc.root, ns, EUSR_CUSTOMIZATION, period, reporter);
  const numbers = (parent: XmlElementWriter, c: { sending: number; receiving: number; sendingOrReceiving: number }) => {
    parent.ele(ns, 'SendingEndUsers').txt(String(c.sending));
    parent.ele(ns, 'ReceivingEndUsers').txt(String(c.receiving));
    parent.ele(ns, 'SendingOrReceivingEndUsers').txt(String(c.sendingOrReceiving));
  };
  numbers(doc.root.ele(ns, 'FullSet'), counts.fullSet);
  for (const subset of counts.subsets) {
    const el = doc.root.ele(ns, 'Subset', { type: subset.type });
    key(el, ns, 'DT', 'busdox-docid-qns', subset.documentTypeId);
    key(el, ns, 'PR', 'cenbii-procid-ubl', subset.processId);
    key(el, ns, 'CC', 'EndUserCountry', subset.country);
    numbers(el, subset);
  }
  return doc.end();
}

/** The Transaction Statistics Report of `period`. */
export function tsrXml(counts: TsrCounts, period: ReportPeriod, reporter: Reporter): string {
  const ns = TSR_NS;
  const doc = newXmlDocument(ns, 'TransactionStatisticsReport');
  header(doc.root, ns, TSR_CUSTOMIZATION, period, reporter);
  const traffic = (parent: XmlElementWriter, t: { incoming: number; outgoing: number }) => {
    parent.ele(ns, 'Incoming').txt(String(t.incoming));
    parent.ele(ns, 'Outgoing').txt(String(t.outgoing));
  };
  traffic(doc.root.ele(ns, 'Total'), counts.total);
  for (const subtotal of counts.subtotals) {
    const el = doc.root.ele(ns, 'Subtotal', { type: subtotal.type });
    key(el, ns, 'TP', 'Peppol', subtotal.transportProfile);
    key(el, ns, 'SP', 'CertSubjectCN', subtotal.serviceProvider);
    key(el, ns, 'DT', 'busdox-docid-qns', subtotal.documentTypeId);
    key(el, ns, 'PR', 'cenbii-procid-ubl', subtotal.processId);
    key(el, ns, 'CC', 'SenderCountry', subtotal.senderCountry);
    key(el, ns, 'CC', 'ReceiverCountry', subtotal.receiverCountry);
    traffic(el, subtotal);
  }
  return doc.end();
}
