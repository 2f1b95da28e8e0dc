import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

type C5 = { status: string; submission_id: string | null; error: string | null };
type Invoice = { id: string; status: string; peppol_delivery: { status: string } | null; c5: C5 | null };

/**
 * Issue 38, item 5: the FS verdict is asked for on a durable schedule, not polled without end.
 * An FS that files the TDD but never gives a verdict fails the FS leg once FS_VERDICT_DEADLINE_HOURS
 * (here a deadline of 1.5 s) has passed since the filing, with a reason that says what to do; the
 * Peppol leg is not touched.
 */
describe('FS gives no verdict: the FS leg fails at its deadline, over HTTP', function () {
  this.timeout(180_000);
  let svc: TestService;
  after(async () => svc?.close());

  it('a filing FS never answers ends failed with the deadline in its reason; the Peppol leg is delivered', async () => {
    // the sandbox FS reveals its verdict after an hour: long after the deadline
    svc = await startTestService({ delivery: { fsSandboxDelayMs: 3_600_000, fsVerdictDeadlineMs: 1_500 } });
    await svc.services.validator();
    const sender = svc.demo.companies[0]!.id;
    const buyer = svc.demo.companies[1]!;
    const customer = (await svc.call('POST', `/companies/${sender}/customers`, { name: buyer.name, vat_id: buyer.vat_id, peppol_id: buyer.peppol_id })).body.id;
    const invoice = (await svc.call('POST', `/companies/${sender}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '10.00', vat_rate: '23' }],
    })).body as Invoice;
    expect((await svc.call('POST', `/companies/${sender}/invoices/${invoice.id}/send`)).status).to.equal(202);
    const read = async () => (await svc.call('GET', `/companies/${sender}/invoices/${invoice.id}`)).body as Invoice;

    const filed = await eventually(read, (i) => i.c5?.status === 'submitted' || i.c5?.status === 'failed');
    const submission = filed.c5!.submission_id;
    expect(submission).to.be.a('string');
    const failed = await eventually(read, (i) => i.c5?.status === 'failed' && i.peppol_delivery?.status === 'delivered');
    expect(failed.c5!.error).to.include(`FS gave no verdict on submission ${submission}`).and.include('ask FS about it or file it again');
    expect(failed.peppol_delivery!.status).to.equal('delivered');
  });
});
