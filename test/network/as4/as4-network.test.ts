/**
 * The AS4 sending adapter against a fake receiving Access Point on loopback: what each kind of
 * answer makes of the attempt (sent, rejected by the receiver, or a failed attempt to retry), and
 * that every retry of a document carries the same eb:MessageId.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { As4Error, buildErrorSignal, buildReceipt, readUserMessage, type SoapResponse } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { as4MessageIdOf, as4PeppolNetwork } from '../../../src/modules/delivery/peppol/as4-network.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { PeppolRejectedError, PeppolTransportError, type OutboundPeppolMessage } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { systemClock } from '../../../src/platform/ports/clock.ts';
import { systemResolver } from '../../../src/platform/http-client/target-guard.ts';
import { issuedBy, testAp, testCa, type TestAp } from './test-certificates.ts';

const SBDH = '<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/></StandardBusinessDocument>';

const message: OutboundPeppolMessage = {
  message_id: 'b6f0c7e2-5d6a-4a53-9d55-0d2f1f6c7a11', sender_participant_id: '0245:2020123456', receiver_participant_id: '9950:sk2020654321',
  document_type_id: INVOICE_DOCUMENT_TYPE_ID, process_id: BILLING_PROCESS_ID, envelope: SBDH,
};

type Answer = (read: Awaited<ReturnType<typeof readUserMessage>>) => { status: number; reply: SoapResponse };

describe('AS4 sending adapter: the answer decides the attempt', function () {
  this.timeout(60_000);
  let us: TestAp;
  let them: TestAp;
  let impostor: TestAp;
  let server: http.Server;
  let url: string;
  let answer: Answer;
  const seen: string[] = [];

  before(async () => {
    const ca = await testCa('Test AP CA');
    us = await testAp(ca, 'POP000001');
    them = await testAp(ca, 'POP000002');
    impostor = await testAp(ca, 'POP000003');
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const read = await readUserMessage(req.headers['content-type'] ?? '', Buffer.concat(chunks), { ourKey: them.key, ourCert: them.cert, trustSender: issuedBy(ca) });
        if (read.ok) seen.push(read.message.messaging.messageId);
        const { status, reply } = answer(read);
        res.writeHead(status, { 'content-type': reply.contentType }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/as4`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const network = (endpoint = () => url) => as4PeppolNetwork({
    identity: { certificate: us.cert, privateKey: us.key, commonName: us.cn },
    discovery: { endpointFor: async () => ({ participant_id: message.receiver_participant_id, url: endpoint(), certificate: them.cert, transport_profile: 'peppol-transport-as4-v2_0', source: 'static', guarded: false }) },
    guard: { allowLoopback: false, resolve: systemResolver },
    clock: systemClock,
    log: { warn: () => undefined },
    timeoutMs: 5_000,
  });
  const receipt = (signer: TestAp): Answer => (read) => {
    if (!read.ok) throw read.error;
    return { status: 200, reply: buildReceipt({ messageId: 'r@POP000002', timestamp: new Date(), refToMessageId: read.message.messaging.messageId, references: read.message.references }, { signingKey: signer.key, signingCert: signer.cert }) };
  };
  const failure = async (work: Promise<unknown>) => work.then(() => expect.fail('the send should have failed'), (error: unknown) => error);

  it('a receipt signed by the receiver, with our digests: sent, the receipt kept; the MessageId is the same on every retry', async () => {
    answer = receipt(them);
    seen.length = 0;
    const first = await network().send(message);
    const second = await network().send(message);
    expect(first.as4?.message_id).to.equal(as4MessageIdOf(message.message_id, 'POP000001')).and.equal(`${message.message_id}@POP000001`);
    expect(first.as4?.receipt).to.include('Receipt');
    expect(second.as4?.message_id).to.equal(first.as4?.message_id);
    expect(seen).to.deep.equal([first.as4?.message_id, first.as4?.message_id]);
  });

  it('an ebMS error signal: rejected by the receiving Access Point, its code as a finding', async () => {
    answer = (read) => ({ status: 400, reply: buildErrorSignal(new As4Error('EBMS:0004', 'unknown recipient', read.ok ? read.message.messaging.messageId : undefined), { messageId: 'e@POP000002', timestamp: new Date() }) });
    const error = await failure(network().send(message));
    expect(error).to.be.instanceOf(PeppolRejectedError);
    expect((error as PeppolRejectedError).findings).to.deep.equal([{ rule: 'EBMS:0004', message: 'unknown recipient' }]);
  });

  it('a receipt signed by someone else: a failed attempt (retried), not a sent leg', async () => {
    answer = receipt(impostor);
    const error = await failure(network().send(message));
    expect(error).to.be.instanceOf(PeppolTransportError);
    expect((error as Error).message).to.include('no valid receipt');
  });

  it('an HTTP 500 without an ebMS answer, or nobody listening: a failed attempt that names the participant, not the URL', async () => {
    answer = () => ({ status: 500, reply: { contentType: 'text/plain', body: Buffer.from('oops') } });
    const error = await failure(network().send(message));
    expect(error).to.be.instanceOf(PeppolTransportError);
    const dead = await failure(network(() => 'http://127.0.0.1:1/as4').send(message));
    expect(dead).to.be.instanceOf(PeppolTransportError);
    expect((dead as Error).message).to.include(message.receiver_participant_id).and.not.include('127.0.0.1');
  });
});
