import { expect } from 'chai';
import { EUSR_DOCUMENT_TYPE_ID, OPENPEPPOL_REPORTING_RECEIVER, REPORTING_PROCESS_ID, TSR_DOCUMENT_TYPE_ID } from '../../src/modules/delivery/peppol/identifiers.ts';
import type { OutboundPeppolMessage } from '../../src/modules/delivery/peppol/peppol-network.ts';
import { readSbdh } from '../../src/modules/delivery/peppol/sbdh.ts';
import { applyReportMls, matchReportMls, readMonth } from '../../src/modules/reporting/index.ts';
import type { Clock } from '../../src/platform/ports/clock.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** A clock that runs from `start` at the pace of the real one (retries fall due; the month stays put). */
const runningFrom = (start: string): Clock => {
  const offset = Date.parse(start) - Date.now();
  return { now: () => new Date(Date.now() + offset) };
};

/** The XML without the whitespace between its elements. */
const compact = (xml: string | undefined) => (xml ?? '').replace(/>\s+</g, '><');
const reporting = (schedule = true) => ({ reporting: { receiver: undefined, schedule } });
const sentBoth = (month: Awaited<ReturnType<typeof readMonth>>) => month.reports.eusr?.status === 'sent' && month.reports.tsr?.status === 'sent';

describe('Peppol Reporting: the monthly schedule (1st to 15th), the sandbox receiver, the operator route, the MLS', function () {
  this.timeout(300_000);

  describe('a month with nothing moved, on the 1st', () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService({ clock: runningFrom('2026-12-01T06:00:00.000Z'), delivery: reporting(), metricsToken: 'operator-secret' });
    });
    after(async () => svc?.close());

    it('builds zero reports of the month before, checks them and sends each once to OpenPeppol from our SPIS participant', async () => {
      const month = await eventually(() => readMonth(svc.services, '2026-11'), sentBoth);
      for (const kind of ['eusr', 'tsr'] as const) {
        const report = month.reports[kind]!;
        expect(report).to.include({ valid: true, attempts: 0 });
        expect(report.xml).to.include('<StartDate>2026-11-01</StartDate>').and.include('<EndDate>2026-11-30</EndDate>');
      }
      const arrivals = (await svc.sandbox.peppol.arrivals()).filter((a) => a.receiver_participant_id === OPENPEPPOL_REPORTING_RECEIVER);
      expect(arrivals.map((a) => a.message_id).sort()).to.deep.equal([month.reports.eusr!.message_id, month.reports.tsr!.message_id].sort());
      expect(arrivals.every((a) => a.sender_participant_id === '0242:000000' && a.arrivals === 1)).to.equal(true);
    });

    it('lists the month to the operator (METRICS_TOKEN), and to nobody else, not even an API key', async () => {
      const url = `${svc.api}/operator/peppol-reporting`;
      const refused = await svc.call('GET', '/operator/peppol-reporting');
      expect(refused.status).to.equal(403);
      expect(refused.body.detail.error).to.equal('operator_only');
      const listed = await eventually(async () => (await (await fetch(url, { headers: { authorization: 'Bearer operator-secret' } })).json()) as { items: { month: string; eusr: { status: string } | null }[] },
        (body) => body.items[0]?.eusr?.status === 'sent');
      expect(listed.items.map((i) => i.month)).to.deep.equal(['2026-11']);
    });

    it("keeps OpenPeppol's MLS on the report it answers (the sandbox's stand-in answers AP); a repeat changes nothing; an unknown message is not ours", async () => {
      const month = await eventually(() => readMonth(svc.services, '2026-11'), (m) => sentBoth(m) && !!m.reports.eusr?.mls && !!m.reports.tsr?.mls);
      expect(month.reports.eusr?.mls?.response_code).to.equal('AP');
      expect(month.reports.tsr?.mls?.response_code).to.equal('AP');
      const kept = month.reports.tsr!.mls;
      const mls = { referenced_instance_id: month.reports.tsr!.message_id!, response_code: 'RE' as const, reasons: [{ rule: 'SCH-TSR-11', location: '/', message: 'sum', reason_code: 'BV' }], received_at: '2026-12-01T06:30:00.000Z' };
      expect(await matchReportMls(svc.services, mls)).to.deep.equal({ month: '2026-11', kind: 'tsr', applied: false });
      expect(await applyReportMls(svc.services, mls), 'it answers one of ours').to.equal(true);
      expect(await applyReportMls(svc.services, { ...mls, referenced_instance_id: crypto.randomUUID() })).to.equal(false);
      const after = await readMonth(svc.services, '2026-11');
      expect(after.reports.tsr?.mls).to.deep.equal(kept);
      const listed = await eventually(async () => (await (await fetch(`${svc.api}/operator/peppol-reporting`, { headers: { authorization: 'Bearer operator-secret' } })).json()) as { items: { tsr: { mls: { response_code: string } | null } }[] },
        (body) => body.items[0]?.tsr.mls?.response_code === 'AP');
      expect(listed.items).to.have.length(1);
    });
  });

  it('waits for the 1st; then counts the month\'s traffic and sends each report in its SBDH: our SPIS participant to the reporting receiver, its document type, the reporting process, COUNTRY_C1 SK', async () => {
    let offset = Date.parse('2027-04-20T12:00:00.000Z') - Date.now();
    const svc = await startTestService({ clock: { now: () => new Date(Date.now() + offset) }, delivery: reporting() });
    try {
      // past the 15th: the run names the next build (the 1st, a few minutes after midnight) and sends nothing
      await eventually(async () => (await svc.services.readModels.query("SELECT due_at FROM scheduled_work WHERE kind = 'peppol-reporting-monthly'")) as { due_at: Date }[],
        (rows) => rows.length === 1 && new Date(rows[0]!.due_at).toISOString().startsWith('2027-05-01T00:'));
      // one invoice from the demo's first company to its second, in April: one sending and one receiving end user
      await svc.services.validator();
      const [first, second] = svc.demo.companies;
      const customer = (await svc.call('POST', `/companies/${first!.id}/customers`, { name: second!.name, vat_id: second!.vat_id, ico: second!.ico, dic: second!.dic, peppol_id: second!.peppol_id })).body.id as string;
      const created = await svc.call('POST', `/companies/${first!.id}/invoices`, {
        issue_date: '2027-04-20', due_date: '2027-05-04', customer_id: customer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
      });
      expect(created.status).to.equal(201);
      expect((await svc.call('POST', `/companies/${first!.id}/invoices/${created.body.id}/send`)).status).to.equal(202);
      await eventually(async () => (await svc.services.readModels.query('SELECT direction FROM peppol_reporting_items')) as { direction: string }[], (rows) => rows.length === 2);
      const sent: OutboundPeppolMessage[] = [];
      const send = svc.sandbox.peppol.send;
      svc.sandbox.peppol.send = async (message, signal) => {
        // the same network carries the invoice's MLS and TDDs: the reports are what goes to the reporting receiver
        if (message.receiver_participant_id === OPENPEPPOL_REPORTING_RECEIVER) sent.push(message);
        return send(message, signal);
      };
      offset = Date.parse('2027-05-01T01:00:00.000Z') - Date.now();
      const month = await eventually(() => readMonth(svc.services, '2027-04'), sentBoth);
      expect(compact(month.reports.eusr?.xml)).to.match(/<FullSet><SendingEndUsers>1<\/SendingEndUsers><ReceivingEndUsers>1<\/ReceivingEndUsers><SendingOrReceivingEndUsers>2<\/SendingOrReceivingEndUsers>/);
      expect(compact(month.reports.tsr?.xml)).to.match(/<Total><Incoming>1<\/Incoming><Outgoing>1<\/Outgoing><\/Total>/);
      expect(sent.map((m) => m.message_id).sort()).to.deep.equal([month.reports.eusr!.message_id, month.reports.tsr!.message_id].sort());
      for (const message of sent) {
        const envelope = readSbdh(message.envelope);
        const kind = envelope.documentTypeId === EUSR_DOCUMENT_TYPE_ID ? 'eusr' : 'tsr';
        expect(envelope).to.include({ sender: '0242:000000', receiver: OPENPEPPOL_REPORTING_RECEIVER, processId: REPORTING_PROCESS_ID, instanceId: message.message_id, countryC1: 'SK' });
        expect([EUSR_DOCUMENT_TYPE_ID, TSR_DOCUMENT_TYPE_ID]).to.include(envelope.documentTypeId);
        expect(message).to.include({ sender_participant_id: '0242:000000', receiver_participant_id: OPENPEPPOL_REPORTING_RECEIVER, document_type_id: envelope.documentTypeId });
        expect(envelope.document).to.include(kind === 'eusr' ? 'EndUserStatisticsReport' : 'TransactionStatisticsReport').and.include('<StartDate>2027-04-01</StartDate>');
        // every status asked for, to our own MLS address
        expect(envelope).to.include({ mlsTo: '0242:000000', mlsType: 'ALWAYS_SEND' });
      }
      // the sandbox's stand-in for OpenPeppol answers each report with an MLS AP, kept on the month
      const answered = await eventually(() => readMonth(svc.services, '2027-04'), (m) => !!m.reports.eusr?.mls && !!m.reports.tsr?.mls);
      expect([answered.reports.eusr!.mls!.response_code, answered.reports.tsr!.mls!.response_code]).to.deep.equal(['AP', 'AP']);
    } finally {
      await svc.close();
    }
  });

  it('a receiver that does not answer: the attempt fails, is retried when due, and the same message goes again', async () => {
    const svc = await startTestService({
      clock: runningFrom('2027-01-02T06:00:00.000Z'), delivery: { ...reporting(), attemptTimeoutMs: 300 }, unansweredParticipants: [OPENPEPPOL_REPORTING_RECEIVER],
    });
    try {
      const failed = await eventually(() => readMonth(svc.services, '2026-12'), (m) => (m.reports.eusr?.attempts ?? 0) >= 1 && (m.reports.tsr?.attempts ?? 0) >= 1);
      expect(failed.reports.eusr).to.include({ status: 'sending' });
      expect(failed.reports.eusr?.last_error).to.match(/no answer/);
      const ids = { eusr: failed.reports.eusr!.message_id, tsr: failed.reports.tsr!.message_id };
      svc.sandbox.peppol.faults.unanswered.clear();
      const sent = await eventually(() => readMonth(svc.services, '2026-12'), sentBoth);
      expect({ eusr: sent.reports.eusr!.message_id, tsr: sent.reports.tsr!.message_id }).to.deep.equal(ids);
      const arrivals = (await svc.sandbox.peppol.arrivals()).filter((a) => a.receiver_participant_id === OPENPEPPOL_REPORTING_RECEIVER);
      expect(arrivals.map((a) => a.message_id).sort()).to.deep.equal([ids.eusr, ids.tsr].sort());
      expect(arrivals.every((a) => a.arrivals >= 2)).to.equal(true);
    } finally {
      await svc.close();
    }
  });

  it('reports whose rules are not available are kept with why, and not sent', async () => {
    const svc = await startTestService({ clock: runningFrom('2027-02-01T06:00:00.000Z'), delivery: reporting(), validationArtifactsDir: '/nonexistent-validation-artifacts' });
    try {
      const month = await eventually(() => readMonth(svc.services, '2027-01'), (m) => m.month !== null);
      expect(month.reports.eusr).to.include({ status: 'invalid', valid: null, message_id: null });
      expect(month.reports.tsr).to.include({ status: 'invalid', valid: null, message_id: null });
      expect((await svc.sandbox.peppol.arrivals()).filter((a) => a.receiver_participant_id === OPENPEPPOL_REPORTING_RECEIVER)).to.deep.equal([]);
    } finally {
      await svc.close();
    }
  });

  it('after the 15th a month not built is left for the operator to see, and nothing is sent', async () => {
    const svc = await startTestService({ clock: runningFrom('2027-03-16T06:00:00.000Z'), delivery: reporting() });
    try {
      // the run is done once the schedule names the next month's build
      await eventually(async () => (await svc.services.readModels.query("SELECT due_at FROM scheduled_work WHERE kind = 'peppol-reporting-monthly'")) as { due_at: Date }[],
        (rows) => rows.length === 1 && new Date(rows[0]!.due_at).toISOString().startsWith('2027-04-01'));
      expect((await readMonth(svc.services, '2027-02')).month).to.equal(null);
    } finally {
      await svc.close();
    }
  });
});
