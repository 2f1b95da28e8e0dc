import { expect } from 'chai';
import type { PeppolReportEvent } from '../../events/reporting.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { reportingMonthDecider, retryAt, type ReportingCommand } from './month.ts';

const given = specFor(reportingMonthDecider);
const MONTH = '2026-11';
const AT = '2026-12-01T00:05:00.000Z';
const policy = { retryBaseMs: 60_000 };

const valid = { xml: '<EndUserStatisticsReport/>', valid: true, errors: [] };
const build = (tsr: { xml: string; valid: boolean | null; errors: { rule: string; location: string; message: string }[] } = { ...valid, xml: '<TransactionStatisticsReport/>' }): ReportingCommand => ({
  type: 'BuildReports', month: MONTH, reports: { eusr: valid, tsr }, at: AT,
});
const built: PeppolReportEvent[] = [
  { type: 'PeppolReportBuilt', data: { month: MONTH, kind: 'eusr', ...valid, built_at: AT } },
  { type: 'PeppolReportBuilt', data: { month: MONTH, kind: 'tsr', ...valid, xml: '<TransactionStatisticsReport/>', built_at: AT } },
];
const message = { sender_participant_id: '0242:000123', receiver_participant_id: '9925:be0848934496', document_type_id: 'eusr-doctype', process_id: 'urn:fdc:peppol.eu:edec:bis:reporting:1.0' };
const start = (message_id = 'm1', kind: 'eusr' | 'tsr' = 'eusr'): ReportingCommand => ({ type: 'StartSending', month: MONTH, kind, message_id, ...message, at: AT });
const sending: PeppolReportEvent = { type: 'PeppolReportSending', data: { month: MONTH, kind: 'eusr', message_id: 'm1', ...message, at: AT } };
const fail = (at = AT, retryable = true): ReportingCommand => ({ type: 'RecordSendFailed', month: MONTH, kind: 'eusr', message_id: 'm1', reason: 'connection refused', retryable, policy, at });
const failed = (attempts: number, retry_at: string | null, failed_at = AT): PeppolReportEvent => ({
  type: 'PeppolReportSendFailed', data: { month: MONTH, kind: 'eusr', message_id: 'm1', reason: 'connection refused', attempts, retry_at, failed_at },
});
const send: ReportingCommand = { type: 'RecordSent', month: MONTH, kind: 'eusr', message_id: 'm1', received_at: AT, receiving_ap: null, at: AT };
const sent: PeppolReportEvent = { type: 'PeppolReportSent', data: { month: MONTH, kind: 'eusr', message_id: 'm1', received_at: AT, receiving_ap: null, sent_at: AT } };
const mls = (response_code: 'AP' | 'AB' | 'RE' = 'AP', message_id = 'm1'): ReportingCommand => ({ type: 'RecordMls', message_id, response_code, reasons: [], received_at: AT });
const answered: PeppolReportEvent = { type: 'PeppolReportMlsReceived', data: { month: MONTH, kind: 'eusr', message_id: 'm1', response_code: 'AP', reasons: [], received_at: AT } };

describe('Peppol Reporting: a reported month (the peppol_reporting-{month} stream)', () => {
  it('builds the EUSR and the TSR of the month, each kept as XML with its checks', () => given([]).when(build()).then(built));

  it('builds a month once: what was built is what is sent', () => given(built).when(build()).thenNothingHappened());

  it('never sends a report that failed its rules, nor one whose rules were not available', () => {
    const invalid = { xml: '<TransactionStatisticsReport/>', valid: false, errors: [{ rule: 'SCH-TSR-11', location: '/', message: 'sum' }] };
    const history = fold(reportingMonthDecider, [built[0]!, { type: 'PeppolReportBuilt', data: { month: MONTH, kind: 'tsr', ...invalid, built_at: AT } }]);
    expect(history.reports.tsr?.status).to.equal('invalid');
    given([built[0]!, { type: 'PeppolReportBuilt', data: { month: MONTH, kind: 'tsr', ...invalid, built_at: AT } }])
      .when(start('m1', 'tsr')).thenThrows('peppol_report_not_sendable', { kind: 'tsr' });
    given([{ type: 'PeppolReportBuilt', data: { month: MONTH, kind: 'eusr', ...valid, valid: null, built_at: AT } }])
      .when(start()).thenThrows('peppol_report_not_sendable');
    given([]).when(start()).thenThrows('peppol_report_not_sendable');
  });

  it('fixes the message id at the first attempt: a repeat keeps it', () => {
    given(built).when(start()).then([sending]);
    given([...built, sending]).when(start('m2')).thenNothingHappened();
  });

  it('a transport failure is retried, backing off, and the next attempt is named', () => {
    given([...built, sending]).when(fail()).then([failed(1, '2026-12-01T00:06:00.000Z')]);
    given([...built, sending, failed(1, '2026-12-01T00:06:00.000Z')]).when(fail('2026-12-01T00:06:00.000Z')).then([failed(2, '2026-12-01T00:11:00.000Z', '2026-12-01T00:06:00.000Z')]);
  });

  it('a refusal is not retried, and nothing is retried past the 15th', () => {
    given([...built, sending]).when(fail(AT, false)).then([failed(1, null)]);
    expect(retryAt(MONTH, 1, '2026-12-15T23:59:30.000Z', true, policy)).to.equal(null);
    expect(retryAt(MONTH, 9, '2026-12-01T00:00:00.000Z', true, policy)).to.equal('2026-12-01T06:00:00.000Z');
    expect(fold(reportingMonthDecider, [...built, sending, failed(1, null)]).reports.eusr?.status).to.equal('failed');
  });

  it('records the send once; an outcome of another message id is refused', () => {
    given([...built, sending]).when(send).then([sent]);
    given([...built, sending, sent]).when(send).thenNothingHappened();
    given([...built, sending, sent]).when(fail()).thenNothingHappened();
    given([...built, sending]).when({ ...send, message_id: 'other' }).thenThrows('peppol_report_not_sendable');
  });

  it("keeps OpenPeppol's MLS on the report it answers; a repeat changes nothing; another message id is not this month's", () => {
    given([...built, sending, sent]).when(mls()).then([answered]);
    given([...built, sending, sent, answered]).when(mls('RE')).thenNothingHappened();
    given([...built, sending, sent]).when(mls('AP', 'unknown')).thenNothingHappened();
    expect(fold(reportingMonthDecider, [...built, sending, sent, answered]).reports.eusr).to.deep.include({ status: 'sent', mls: { response_code: 'AP', reasons: [], received_at: AT } });
  });
});
