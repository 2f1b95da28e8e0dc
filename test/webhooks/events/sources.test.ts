import { expect } from 'chai';
import { invoiceStream, invoiceValidationStream } from '../../../events/invoices.ts';
import type { RecordedEvent } from '../../../src/platform/eventstore/port.ts';
import { SANDBOX_REJECT_BUYER_REFERENCE } from '../../../src/modules/delivery/sandbox/receiver-rules.ts';
import { webhookEventsOf } from '../../../src/modules/webhooks/events/envelopes.ts';
import { invoiceFacts } from '../../../src/modules/webhooks/events/invoice-facts.ts';
import { eventually } from '../../support/poll.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/*
 * The two webhook sources this work added, through the running service: the receiver's rejection
 * (the sandbox receiver rejects buyer reference SANDBOX-REJECT) and a failed validation.
 */
describe('webhook sources in the running service: the receiver\'s rejection and a failed validation', function () {
  this.timeout(240_000);
  let svc: TestService;
  let sender: string;
  let buyer: string;
  let unknownBuyer: string;

  const draft = async (customerId: string, extra: Record<string, unknown> = {}) => {
    const created = await svc.call('POST', `/companies/${sender}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customerId,
      lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }], ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as { id: string; version: number };
  };
  const read = async (id: string) => (await svc.call('GET', `/companies/${sender}/invoices/${id}`)).body as { status: string; version: number };
  const stream = (id: string): Promise<RecordedEvent[]> => svc.services.store.readStream(invoiceStream(id));
  const raised = (events: readonly RecordedEvent[], source: RecordedEvent, facts = events) => webhookEventsOf(source, invoiceFacts(facts, source)!);
  const sendAndFail = async (customerId: string, extra: Record<string, unknown> = {}) => {
    const invoice = await draft(customerId, extra);
    expect((await svc.call('POST', `/companies/${sender}/invoices/${invoice.id}/send`)).status).to.equal(202);
    await eventually(() => read(invoice.id), (i) => i.status === 'failed');
    const events = await stream(invoice.id);
    return { events, failure: events.find((e) => e.type === 'PeppolDeliveryFailed')! };
  };

  before(async () => {
    svc = await startTestService();
    await svc.services.validator();
    sender = svc.demo.companies[0]!.id;
    const company = svc.demo.companies[1]!;
    buyer = (await svc.call('POST', `/companies/${sender}/customers`, { name: company.name, vat_id: company.vat_id, ico: company.ico, dic: company.dic, peppol_id: company.peppol_id })).body.id;
    unknownBuyer = (await svc.call('POST', `/companies/${sender}/customers`, { name: 'Neznámy s.r.o.', vat_id: 'SK2020000004', peppol_id: '9950:sk2020000004svctest' })).body.id;
  });
  after(async () => svc?.close());

  it('the sandbox receiver rejects buyer reference SANDBOX-REJECT: the Peppol leg fails as rejected by the receiver, and invoice.rejected is raised', async () => {
    const { events, failure } = await sendAndFail(buyer, { buyer_reference: SANDBOX_REJECT_BUYER_REFERENCE });
    expect(failure.data).to.include({ rejected_by_receiver: true });
    expect(failure.data['findings']).to.deep.equal([{ rule: 'SANDBOX-PEPPOL-01', message: 'The receiver rejected the document: its buyer reference is SANDBOX-REJECT, which asks the sandbox for a rejection.' }]);
    const [rejected] = raised(events, failure);
    expect(rejected?.type).to.equal('invoice.rejected');
    expect(JSON.parse(rejected!.body).data).to.include({ reason: failure.data['reason'], message_id: failure.data['peppol_message_id'] });
  });

  it('a participant nobody serves fails the leg without a rejection: no invoice.rejected', async () => {
    const { events, failure } = await sendAndFail(unknownBuyer);
    expect(failure.data).not.to.have.property('rejected_by_receiver');
    expect(raised(events, failure)).to.deep.equal([]);
  });

  it('a failed validation is recorded beside the invoice, which keeps its status and version; invoice.validation_failed is raised from it', async () => {
    const bare = (await svc.call('POST', `/companies/${sender}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', buyer: { name: 'Kupec bez adresy', vat_id: 'SK2020000015' },
      lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    })).body as { id: string; version: number };
    const answer = await svc.call('POST', `/companies/${sender}/invoices/${bare.id}/validate`);
    expect(answer.body).to.include({ valid: false, status: 'draft' });
    expect(await read(bare.id)).to.include({ status: 'draft', version: bare.version });
    const failures = await svc.services.store.readStream(invoiceValidationStream(bare.id));
    expect(failures.map((e) => e.type)).to.deep.equal(['InvoiceValidationFailed']);
    expect(failures[0]!.data).to.include({ invoice_id: bare.id, business_rules_valid: true, xsd_valid: true, peppol_valid: false });
    const [event] = raised(await stream(bare.id), failures[0]!);
    expect(event?.type).to.equal('invoice.validation_failed');
    const data = JSON.parse(event!.body).data as { status: string; errors: { rule: string }[] };
    expect(data.status).to.equal('draft');
    expect(data.errors.map((e) => e.rule)).to.include('PEPPOL-EN16931-R010');
    // a client holding the version it read edits without a 412
    expect((await svc.call('PUT', `/companies/${sender}/invoices/${bare.id}`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: buyer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    }, { 'if-match': String(bare.version) })).status).to.equal(200);
  });

  it('a passing validation records no failure', async () => {
    const invoice = await draft(buyer);
    expect((await svc.call('POST', `/companies/${sender}/invoices/${invoice.id}/validate`)).body).to.include({ valid: true });
    expect(await svc.services.store.readStream(invoiceValidationStream(invoice.id))).to.deep.equal([]);
  });
});
