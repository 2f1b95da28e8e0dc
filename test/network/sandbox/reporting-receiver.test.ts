import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { mlsIssuedDecider, mlsIssuedStream } from '../../../commands/mls/issued.ts';
import { EUSR_DOCUMENT_TYPE_ID, OPENPEPPOL_REPORTING_RECEIVER, REPORTING_PROCESS_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { PeppolRefusedError } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { readAndFold } from '../../../src/platform/handling/read-and-fold.ts';
import { eventually } from '../../support/poll.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { artifact, needArtifacts } from '../../validation/support/paths.ts';

/**
 * The sandbox stands in for OpenPeppol's reporting receiver: a report sent there is counted,
 * answered with a receipt and then an MLS AP (the demo sends its monthly reports with nothing
 * configured), and it is no invoice: no company receives it.
 */
describe('sandbox Peppol network: the reporting receiver', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(needArtifacts);
  before(async () => {
    svc = await startTestService();
  });
  after(async () => svc?.close());

  const report = (message_id: string, receiver_participant_id = OPENPEPPOL_REPORTING_RECEIVER) => ({
    message_id, sender_participant_id: '0242:000000', receiver_participant_id, document_type_id: EUSR_DOCUMENT_TYPE_ID, process_id: REPORTING_PROCESS_ID,
    envelope: wrapInSbdh({
      sender: '0242:000000', receiver: receiver_participant_id, documentTypeId: EUSR_DOCUMENT_TYPE_ID, processId: REPORTING_PROCESS_ID, instanceId: message_id,
      createdAt: new Date(), countryC1: 'SK', mlsTo: '0242:000000', mlsType: 'ALWAYS_SEND',
      document: readFileSync(artifact('peppol-reporting', 'eusr-1.1.5', 'examples', 'end-user-statistics-reporting-1.xml'), 'utf8'),
    }),
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
    // answered once, with an MLS AP to the address the envelope named
    const answered = await eventually(async () => (await readAndFold(svc.services.store, mlsIssuedStream(id), mlsIssuedDecider)).state, (st) => st.status === 'issued' && st.sending === 'sent');
    expect(answered.status === 'issued' && { code: answered.issued.response_code, to: answered.issued.mls?.to }).to.deep.equal({ code: 'AP', to: '0242:000000' });
  });

  it('a participant that is neither a company nor the reporting receiver is still unknown', async () => {
    const refused = await svc.sandbox.peppol.send(report(crypto.randomUUID(), '9925:be0000000000')).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(PeppolRefusedError);
  });
});
