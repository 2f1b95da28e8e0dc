import { expect } from 'chai';
import { SK_TAX_DATA_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import type { OutboundPeppolMessage } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { eventually } from '../../support/poll.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * The sandbox's Peppol network and its corner 5 count raw arrivals (issue 21): a message or a TDD
 * that comes again (a sender retransmitting after a crash between the send and its record) is
 * counted again, while the receiving side still keeps one copy and corner 5 one submission.
 */
describe('sandbox raw arrivals: a retransmission is counted, never kept twice', function () {
  this.timeout(240_000);
  let svc: TestService;
  let sender: string;
  let receiver: string;
  let customer: string;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator();
    sender = svc.demo.companies[0]!.id;
    receiver = svc.demo.companies[1]!.id;
    const buyer = svc.demo.companies[1]!;
    customer = (await svc.call('POST', `/companies/${sender}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
  });
  after(async () => svc?.close());

  it('a Peppol message sent again under its id arrives twice and is received once; the TDD sent again reaches corner 5 twice as one submission', async () => {
    const { peppol, fs } = svc.sandbox;
    const sendOriginal = peppol.send;
    const messages: OutboundPeppolMessage[] = [];
    peppol.send = async (message) => {
      messages.push(message);
      return sendOriginal(message);
    };
    let invoice: { id: string; invoice_number: string };
    try {
      invoice = (await svc.call('POST', `/companies/${sender}/invoices`, {
        issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
      })).body;
      expect((await svc.call('POST', `/companies/${sender}/invoices/${invoice.id}/send`)).status).to.equal(202);
      await eventually(async () => (await svc.call('GET', `/companies/${sender}/invoices/${invoice.id}`)).body.status as string, (s) => s === 'fs_acknowledged');
    } finally {
      peppol.send = sendOriginal;
    }
    const message = messages.find((m) => m.envelope.includes(`<cbc:ID>${invoice.invoice_number}</cbc:ID>`) && m.document_type_id !== SK_TAX_DATA_DOCUMENT_TYPE_ID);
    expect(message, 'the invoice went out').to.not.equal(undefined);
    const submission = ((await svc.call('GET', `/companies/${sender}/invoices/${invoice.id}`)).body as { c5: { submission_id: string } }).c5.submission_id;
    const tdd = messages.find((m) => m.document_type_id === SK_TAX_DATA_DOCUMENT_TYPE_ID && m.message_id === submission);
    expect(tdd, 'the sender filed its TDD as a Peppol message').to.not.equal(undefined);

    // the sender's retransmissions, as after a crash between each effect and its record
    expect((await peppol.send(message!)).message_id).to.equal(message!.message_id);
    expect((await peppol.send(tdd!)).message_id).to.equal(submission);

    const arrived = (await peppol.arrivals()).filter((a) => a.message_id === message!.message_id || a.message_id === submission);
    expect(arrived.map((a) => a.arrivals)).to.deep.equal([2, 2]);
    expect(arrived.find((a) => a.message_id === message!.message_id)).to.include({ sender_participant_id: message!.sender_participant_id, receiver_participant_id: message!.receiver_participant_id });
    const copies = ((await svc.call('GET', `/companies/${receiver}/invoices?q=${invoice.invoice_number}`)).body.items as { source: string }[]).filter((i) => i.source === 'peppol');
    expect(copies, 'inbound copies').to.have.length(1);
    const filed = (await fs.filed()).filter((f) => f.submission_id === submission);
    expect(filed.map((f) => ({ role: f.reporter_role, arrivals: f.arrivals }))).to.deep.equal([{ role: 'C2', arrivals: 2 }]);
  });
});
