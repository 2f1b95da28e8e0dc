// A month's EUSR and TSR from traffic that went through the service over HTTP (the sandbox network:
// both companies are ours, so each invoice is sent by one end user and received by the other).
import { expect } from 'chai';
import { reportPeriod } from '../../commands/reporting/period.ts';
import { PEPPOL_REPORTING, reportingItems } from '../../projections/peppol-reporting/queries.ts';
import { createReportValidator, previewReports, type ReportValidator } from '../../src/modules/reporting/index.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { ARTIFACTS, CACHE } from '../validation/support/paths.ts';

const SEAT = 'PSK000000';

/** The numbers of `element` in `xml`, in document order. */
const numbers = (xml: string, element: string) => [...xml.matchAll(new RegExp(`<${element}>(\\d+)</${element}>`, 'g'))].map((m) => Number(m[1]));

describe('Peppol Reporting from traffic sent and received over HTTP', function () {
  this.timeout(300_000);
  let svc: TestService;
  let validator: ReportValidator;
  let a: string;
  let b: string;

  const send = async (from: string, customer: string) => {
    const created = await svc.call('POST', `/companies/${from}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer,
      lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    });
    expect(created.status).to.equal(201);
    expect((await svc.call('POST', `/companies/${from}/invoices/${created.body.id}/send`)).status).to.equal(202);
    await eventually(async () => (await svc.call('GET', `/companies/${from}/invoices/${created.body.id}`)).body.status as string, (s) => ['delivered', 'fs_acknowledged', 'failed', 'rejected'].includes(s));
  };

  before(async () => {
    svc = await startTestService();
    await svc.services.validator();
    validator = await createReportValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE });
    const [first, second] = svc.demo.companies;
    a = first!.id;
    b = second!.id;
    const customerOf = async (company: string, party: typeof first) =>
      (await svc.call('POST', `/companies/${company}/customers`, { name: party!.name, vat_id: party!.vat_id, ico: party!.ico, dic: party!.dic, peppol_id: party!.peppol_id })).body.id as string;
    const bAtA = await customerOf(a, second);
    const aAtB = await customerOf(b, first);
    // A sends B two invoices, B sends A one
    await send(a, bAtA);
    await send(a, bAtA);
    await send(b, aAtB);
  });
  after(async () => {
    validator?.close();
    await svc?.close();
  });

  it('counts, by hand: 3 out and 3 in; end users A and B each sent and received', async () => {
    const now = svc.services.clock.now();
    const period = reportPeriod(now.toISOString().slice(0, 7))!;
    // every document recorded (sent by its sender's Access Point, received by the receiver's: here both are us)
    await eventually(() => reportingItems(svc.services.readModels, period.from, period.to), (items) => items.length === 6);
    const { reports, checks } = await previewReports(svc.services.readModels, period, SEAT, validator);

    expect(checks.eusr).to.deep.include({ valid: true, errors: [], warnings: [] });
    expect(checks.tsr).to.deep.include({ valid: true, errors: [], warnings: [] });
    // EUSR: full set, then PerDT-PR (invoices), PerDT-PR-EUC (SK), PerDT-EUC (SK), PerEUC (SK): A and B in each
    expect(numbers(reports.eusr, 'SendingEndUsers')).to.deep.equal([2, 2, 2, 2, 2]);
    expect(numbers(reports.eusr, 'ReceivingEndUsers')).to.deep.equal([2, 2, 2, 2, 2]);
    expect(numbers(reports.eusr, 'SendingOrReceivingEndUsers')).to.deep.equal([2, 2, 2, 2, 2]);
    // TSR: total, PerTP, PerSP-DT-PR (the other AP is ourselves), PerSP-DT-PR-CC (SK to SK, incoming only)
    expect(numbers(reports.tsr, 'Incoming')).to.deep.equal([3, 3, 3, 3]);
    expect(numbers(reports.tsr, 'Outgoing')).to.deep.equal([3, 3, 3, 0]);
    expect(reports.tsr).to.include('<Key metaSchemeID="SP" schemeID="CertSubjectCN">PSK000000</Key>')
      .and.include('<Key metaSchemeID="CC" schemeID="SenderCountry">SK</Key>')
      .and.include('<Key metaSchemeID="TP" schemeID="Peppol">peppol-transport-as4-v2_0</Key>');
  });

  it('a month with no traffic gives valid zero reports', async () => {
    const { reports, checks } = await previewReports(svc.services.readModels, reportPeriod('2020-01')!, SEAT, validator);
    expect(checks.eusr.valid).to.equal(true);
    expect(checks.tsr.valid).to.equal(true);
    expect(numbers(reports.eusr, 'SendingOrReceivingEndUsers')).to.deep.equal([0]);
    expect(numbers(reports.tsr, 'Incoming')).to.deep.equal([0]);
    expect(numbers(reports.tsr, 'Outgoing')).to.deep.equal([0]);
  });

  it('the read model rebuilds from history to the same rows', async () => {
    const period = reportPeriod(svc.services.clock.now().toISOString().slice(0, 7))!;
    const before = await reportingItems(svc.services.readModels, period.from, period.to);
    const projector = svc.services.projections.projectors.find((p) => p.name === PEPPOL_REPORTING)!;
    await svc.services.projections.rebuild(projector);
    expect(await reportingItems(svc.services.readModels, period.from, period.to)).to.deep.equal(before);
  });
});
