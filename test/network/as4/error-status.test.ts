/**
 * The HTTP status of an ebMS Error signal, both ways. Implementations differ: phase4 answers its
 * error signals with 200, a SOAP stack that wraps them in a SOAP Fault (Oxalis on CXF) with 500,
 * others with 4xx. Our sender reads an error signal at any status as the receiver's refusal; our
 * door answers one with 200 (what phase4 does, and what older phase4 senders can read), and keeps
 * 413 only for a body it never read.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { as4Door } from '../../../src/doors/as4/door.ts';
import { As4Error, buildErrorSignal, readUserMessage, type SoapResponse } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { as4PeppolNetwork } from '../../../src/modules/delivery/peppol/as4-network.ts';
import { as4Receiver } from '../../../src/modules/delivery/peppol/as4-receive.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { PeppolRejectedError, PeppolTransportError, type OutboundPeppolMessage } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { systemResolver } from '../../../src/platform/http-client/target-guard.ts';
import type { EventStore } from '../../../src/platform/eventstore/port.ts';
import { systemClock } from '../../../src/platform/ports/clock.ts';
import { randomIds } from '../../../src/platform/ports/ids.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';
import { issuedBy, testAp, testCa, type TestAp } from './test-certificates.ts';

const SBDH = '<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/></StandardBusinessDocument>';

const message: OutboundPeppolMessage = {
  message_id: '0c8a3f8e-2a0e-4f43-9d0b-6a1f3c1d2e11', sender_participant_id: '0245:2020123456', receiver_participant_id: '9950:sk2020654321',
  document_type_id: INVOICE_DOCUMENT_TYPE_ID, process_id: BILLING_PROCESS_ID, envelope: SBDH,
};

const listen = async (server: http.Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/as4`;
};
const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const failure = async (work: Promise<unknown>) => work.then(() => expect.fail('the send should have failed'), (error: unknown) => error);

/** The same error signal inside a SOAP Fault, as a SOAP stack that faults on errors writes it. */
function asSoapFault(signal: SoapResponse): SoapResponse {
  const xml = signal.body.toString('utf8');
  const prefix = /<([A-Za-z0-9]+):Envelope/.exec(xml)?.[1] ?? 'S12';
  const fault = `<${prefix}:Fault><${prefix}:Code><${prefix}:Value>${prefix}:Sender</${prefix}:Value></${prefix}:Code><${prefix}:Reason><${prefix}:Text xml:lang="en">refused</${prefix}:Text></${prefix}:Reason></${prefix}:Fault>`;
  const withFault = xml.replace(new RegExp(`<${prefix}:Body([^>]*)/>`), `<${prefix}:Body$1>${fault}</${prefix}:Body>`).replace(new RegExp(`(<${prefix}:Body[^>/]*>)(</${prefix}:Body>)`), `$1${fault}$2`);
  expect(withFault).to.include(':Fault>');
  return { contentType: signal.contentType, body: Buffer.from(withFault, 'utf8') };
}

describeDatabaseFree('AS4 ebMS error signals at any HTTP status', function () {
  this.timeout(60_000);
  let us: TestAp;
  let them: TestAp;
  let outsider: TestAp;
  let trustedCa: Awaited<ReturnType<typeof testCa>>;

  before(async () => {
    trustedCa = await testCa('Test AP CA');
    const otherCa = await testCa('Other CA');
    us = await testAp(trustedCa, 'POP000001');
    them = await testAp(trustedCa, 'POP000002');
    outsider = await testAp(otherCa, 'POP000009');
  });

  const network = (url: string, sender: TestAp = us) => as4PeppolNetwork({
    identity: { certificate: sender.cert, privateKey: sender.key, commonName: sender.cn },
    discovery: { endpointFor: async () => ({ participant_id: message.receiver_participant_id, url, certificate: them.cert, transport_profile: 'peppol-transport-as4-v2_0', source: 'static', guarded: false }) },
    guard: { allowLoopback: false, resolve: systemResolver },
    clock: systemClock,
    log: { warn: () => undefined },
    timeoutMs: 5_000,
  });

  describe('our sender, against receivers that answer differently', () => {
    let server: http.Server;
    let url: string;
    let status = 200;
    let wrap: (signal: SoapResponse) => SoapResponse = (s) => s;

    before(async () => {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          const read = await readUserMessage(req.headers['content-type'] ?? '', Buffer.concat(chunks), { ourKey: them.key, ourCert: them.cert, trustSender: issuedBy(trustedCa) });
          const reply = wrap(buildErrorSignal(new As4Error('EBMS:0004', 'PEPPOL:NOT_SERVICED', read.ok ? read.message.messaging.messageId : undefined), { messageId: 'e@POP000002', timestamp: new Date() }));
          res.writeHead(status, { 'content-type': reply.contentType }).end(reply.body);
        });
      });
      url = await listen(server);
    });
    after(() => close(server));

    for (const [answered, plain] of [[200, true], [400, true], [500, true], [500, false]] as const) {
      it(`an error signal ${plain ? '' : 'inside a SOAP Fault '}with HTTP ${answered}: the receiver's refusal, its code as a finding`, async () => {
        status = answered;
        wrap = plain ? (s) => s : asSoapFault;
        const error = await failure(network(url).send(message));
        expect(error, String(error)).to.be.instanceOf(PeppolRejectedError);
        expect((error as PeppolRejectedError).findings).to.deep.equal([{ rule: 'EBMS:0004', message: 'PEPPOL:NOT_SERVICED' }]);
      });
    }
  });

  describe('our door', () => {
    let server: http.Server;
    let url: string;
    const maxBodyBytes = 256 * 1024;

    before(async () => {
      // only refusals reach the database-free part of the receiver: nothing here may query it
      const readModels = { query: () => Promise.reject(new Error('no database in this test')) } as unknown as DataSource;
      const receiver = as4Receiver({
        store: { readStream: () => Promise.reject(new Error('no event store in this test')) } as unknown as EventStore, ids: randomIds,
        identity: { certificate: them.cert, privateKey: them.key, commonName: them.cn },
        trustSender: async (cert) => issuedBy(trustedCa)(cert),
        readModels,
        receive: () => Promise.reject(new Error('nothing is received in this test')), ourSpis: '0242:000001',
        clock: systemClock,
        log: { info: () => undefined, warn: () => undefined },
      });
      server = http.createServer(as4Door({ receiver, maxBodyBytes, bodyTimeoutMs: 10_000, log: pino({ level: 'silent' }) }));
      url = await listen(server);
    });
    after(() => close(server));

    it('answers an ebMS error signal with HTTP 200, and our sender reads it as the refusal', async () => {
      let answeredStatus = 0;
      const spying = http.createServer((req, res) => {
        const forward = http.request(url, { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' } }, (answer) => {
          answeredStatus = answer.statusCode ?? 0;
          res.writeHead(answeredStatus, { 'content-type': answer.headers['content-type'] ?? '' });
          answer.pipe(res);
        });
        req.pipe(forward);
      });
      const spyUrl = await listen(spying);
      try {
        const error = await failure(network(spyUrl, outsider).send(message));
        expect(answeredStatus).to.equal(200);
        expect(error, String(error)).to.be.instanceOf(PeppolRejectedError);
        expect((error as PeppolRejectedError).findings.map((f) => f.rule)).to.deep.equal(['EBMS:0101']);
      } finally {
        await close(spying);
      }
    });

    it('a body it never read (larger than allowed) still gets 413, with an error signal', async () => {
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=x' }, body: new Uint8Array(maxBodyBytes + 1) });
      expect(answer.status).to.equal(413);
      const text = await answer.text();
      expect(text).to.include('SignalMessage').and.include('EBMS:0004');
    });

    it('a plain HTTP error with no ebMS answer is a failed attempt to retry, not a refusal', async () => {
      const proxy = http.createServer((_req, res) => { res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>'); });
      const proxyUrl = await listen(proxy);
      try {
        const error = await failure(network(proxyUrl).send(message));
        expect(error).to.be.instanceOf(PeppolTransportError);
      } finally {
        await close(proxy);
      }
    });
  });
});
