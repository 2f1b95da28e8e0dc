import { expect } from 'chai';
import { EUSR_DOCUMENT_TYPE_ID, OPENPEPPOL_REPORTING_RECEIVER, REPORTING_PROCESS_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { PeppolRefusedError } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * The sandbox stands in for OpenPeppol's reporting receiver: a report sent there is counted and
 * answered with a receipt (the demo sends its monthly reports with nothing configured), and it is
 * no invoice: no company receives it.
 */
describe('sandbox Peppol network: the reporting receiver', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => svc?.close());

  const report = (message_id: string, receiver_participant_id = OPENPEPPOL_REPORTING_RECEIVER) => ({
    message_id, sender_participant_id: '0242:000000', receiver_participant_id, document_type_id: EUSR_DOCUMENT_TYPE_ID, process_id: REPORTING_PROCESS_ID,
    envelope: '<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"/>',
  });

  it('takes a report to the reporting receiver (any case of its id), counts each arrival, and hands it to nobody', async () => {
    const id = crypto.randomUUID();
    const receipt = await svc.sandbox.peppol.send(report(id));
    expect(receipt.message_id).to.equal(id);
    await svc.sandbox.peppol.send(report(id, OPENPEPPOL_REPORTING_RECEIVER.toUpperCase()));
    const arrivals = (await svc.sandbox.peppol.arrivals()).filter((a) => a.message_id === id);
    expect(arrivals).to.have.length(1);
    expect(arrivals[0]).to.include({ arrivals: 2, sender_participant_id: '0242:000000' });
    const received = await svc.call('GET', '/invoices?page_size=100');
    expect(received.body.items.filter((i: { source?: string }) => i.source === 'peppol')).to.deep.equal([]);
  });

  it('a participant that is neither a company nor the reporting receiver is still unknown', async () => {
    const refused = await svc.sandbox.peppol.send(report(crypto.randomUUID(), '9925:be0000000000')).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(PeppolRefusedError);
  });
});
