import { expect } from 'chai';
import type { FsFiling } from '../../../src/modules/delivery/fs/fs-authority.ts';
import type { OutboundPeppolMessage } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { eventually } from '../../support/poll.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * The sandbox's Peppol network and FS count raw arrivals (issue 21): a message or a filing that
 * comes again (a sender retransmitting after a crash between the send and its record) is counted
 * again, while the receiving side still keeps one copy and FS one submission with the same id.
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

  it('a Peppol message sent again under its id arrives twice and is received once; FS files the same TDD once under one submission id', async () => {
    const { peppol, fs } = svc.sandbox;
    const sendOriginal = peppol.send;
    const submitOriginal = fs.submit;
    const messages: OutboundPeppolMessage[] = [];
    const filings: FsFiling[] = [];
    const submissions: string[] = [];
    peppol.send = async (message) => {
      messages.push(message);
      return sendOriginal(message);
    };
    fs.submit = async (filing) => {
      filings.push(filing);
      const submitted = await submitOriginal(filing);
      submissions.push(submitted.submission_id);
      return submitted;
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
      fs.submit = submitOriginal;
    }
    const message = messages.find((m) => m.envelope.includes(`<cbc:ID>${invoice.invoice_number}</cbc:ID>`));
    expect(message, 'the invoice went out').to.not.equal(undefined);
    const c2 = filings.findIndex((f) => f.invoice_id === invoice.id);
    expect(c2, 'the sender filed').to.be.at.least(0);

    // the sender's retransmissions, as after a crash between each effect and its record
    expect((await peppol.send(message!)).message_id).to.equal(message!.message_id);
    expect((await fs.submit(filings[c2]!)).submission_id).to.equal(submissions[c2]);

    const arrived = (await peppol.arrivals()).filter((a) => a.message_id === message!.message_id);
    expect(arrived).to.have.length(1);
    expect(arrived[0]).to.include({ arrivals: 2, sender_participant_id: message!.sender_participant_id, receiver_participant_id: message!.receiver_participant_id });
    const copies = ((await svc.call('GET', `/companies/${receiver}/invoices?q=${invoice.invoice_number}`)).body.items as { source: string }[]).filter((i) => i.source === 'peppol');
    expect(copies, 'inbound copies').to.have.length(1);
    const filed = (await fs.filed()).filter((f) => f.invoice_id === invoice.id);
    expect(filed.map((f) => ({ role: f.reporter_role, id: f.submission_id, arrivals: f.arrivals }))).to.deep.equal([{ role: 'C2', id: submissions[c2], arrivals: 2 }]);
  });
});
