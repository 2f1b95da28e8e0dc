/**
 * Message Level Status both ways between two Access Points on loopback (issue 39, items 1 and 2):
 * each instance runs PEPPOL_NETWORK=as4 with its own certificate from one test PKI. Instance 1
 * finds instance 2 (its buyer and its MLS address 0242:000002) through a static table; instance 2
 * finds instance 1's MLS address 0242:000001 through the SML (a DNS responder) and a signed SMP
 * entry for the MLS document type. Instance 2 runs a rule release in force since yesterday that
 * refuses an invoice whose note says REFUSE-ME, so instance 1 (on 3.0.21) sends a document its
 * receiver refuses.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import fs, { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { mlsReceivedDecider, mlsReceivedStream } from '../../../commands/mls/received.ts';
import { mlsIssuedDecider, mlsIssuedStream } from '../../../commands/mls/issued.ts';
import { boundedFetch } from '../../../src/modules/delivery/index.ts';
import { buildUserMessage } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { parseSmpParticipantId } from '../../../src/modules/delivery/peppol/smp/participant-id.ts';
import { smlHostName } from '../../../src/modules/delivery/peppol/smp/sml-name.ts';
import { buildMls } from '../../../src/modules/mls/index.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { readAndFold } from '../../../src/platform/handling/read-and-fold.ts';
import { eventually } from '../../support/poll.ts';
import { startTestPki, type TestCertificate, type TestPki } from '../../support/peppol-pki.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { artifactsWithRelease } from '../../validation/support/future-release.ts';
import { smpNaptr, startFakeDns, type FakeDns } from '../smp/fake-dns.ts';
import { startFakeSmp, type FakeSmp } from '../smp/fake-smp.ts';
import { groupPath, metadataPath, serviceGroup, signedServiceMetadata } from '../smp/smp-fixtures.ts';

const ZONE = 'acc.edelivery.tech.ec.europa.eu';
/** The Financial Administration's participant (FS_PARTICIPANT_ID's default): instance 2 serves it as the sandbox's corner 5. */
const FS = '0242:001180';
const REFUSING_RELEASE = `
  <pattern id="refusing-release">
    <rule context="/*">
      <assert id="FIXTURE-REFUSE" flag="fatal" test="not(contains(string(*:Note[1]), 'REFUSE-ME'))">[FIXTURE-REFUSE]-This receiver's release refuses a note that says REFUSE-ME.</assert>
    </rule>
  </pattern>
</schema>`;

type Invoice = {
  id: string; status: string; invoice_number: string;
  peppol_delivery: {
    status: string; error: string | null; findings: { rule: string; message: string }[]; message_id: string;
    mls_response_code: string | null; mls_description: string | null; mls_received_at: string | null;
    mls_reasons: { location: string; description: string; reason_code: string }[];
  } | null;
};

describe('MLS between two Access Points on loopback (PEPPOL_NETWORK=as4)', function () {
  this.timeout(300_000);
  let pki: TestPki;
  let ap1: TestCertificate;
  let ap2: TestCertificate;
  let one: TestService;
  let two: TestService;
  let dns: FakeDns;
  let smp: FakeSmp;
  let hooks: WebhookReceiver;
  let artifacts: string;
  let seller: string;
  let customer: string;
  let buyer: { id: string; peppol_id: string };
  let delivered: Invoice;

  const accessPoint = async (certificate: TestCertificate, options: { staticEndpoints?: string; artifactsDir?: string; corner5?: boolean }) => {
    const config = loadConfig(pki.env(certificate));
    return startTestService({
      peppol: config.peppol,
      validationArtifactsDir: options.artifactsDir,
      peppolRevocationFetch: boundedFetch({ timeoutMs: 2_000, maxBytes: 1024 * 1024, allowLoopback: true }),
      webhooks: { allowLoopbackTargets: true },
      delivery: {
        smlZone: ZONE, participantDirectory: config.delivery.participantDirectory, fsCorner5: options.corner5 ? 'sandbox' : 'peppol', fsSandboxDelayMs: 50,
        discovery: { ...config.delivery.discovery, staticEndpointsFile: options.staticEndpoints, dnsServers: [dns.server], timeoutMs: 2_000, smpCacheMs: 0, allowLoopback: true },
      },
    });
  };
  const read = async (id: string) => (await one.call('GET', `/companies/${seller}/invoices/${id}`)).body as Invoice;
  const inboundCopies = async (number: string) =>
    ((await two.call('GET', `/companies/${buyer.id}/invoices?q=${number}`)).body.items as { source: string }[]).filter((i) => i.source === 'peppol');
  const sendInvoice = async (note: string | null) => {
    const created = await one.call('POST', `/companies/${seller}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, note,
      lines: [{ item_name: 'Servis cez AS4', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect((await one.call('POST', `/companies/${seller}/invoices/${created.body.id}/send`)).status).to.equal(202);
    return eventually(() => read(created.body.id as string), (i) => i.peppol_delivery?.mls_response_code != null || i.peppol_delivery?.status === 'failed', { withinMs: 120_000 });
  };
  /** An AS4 message from instance 2 to instance 1's MLS address, carrying `mls`. */
  const mlsToOne = (mls: string, instanceId: string) => buildUserMessage({
    messageId: `${randomUUID()}@POP000002`, timestamp: new Date(), conversationId: randomUUID(), processId: MLS_PROCESS_ID, documentTypeId: MLS_DOCUMENT_TYPE_ID,
    originalSender: '0242:000002', finalRecipient: '0242:000001',
    sbdh: wrapInSbdh({ sender: '0242:000002', receiver: '0242:000001', documentTypeId: MLS_DOCUMENT_TYPE_ID, processId: MLS_PROCESS_ID, instanceId, createdAt: new Date(), countryC1: 'SK', document: mls }),
  }, { signingKey: createPrivateKey(ap2.keyPem), signingCert: ap2.node, receiverCert: ap1.node });
  const mlsFromTwo = (referenced: string, responseCode: 'AP' | 'RE', id = randomUUID()) => buildMls({
    id, issued_at: new Date().toISOString(), sender: '0242:000002', receiver: '0242:000001', response_code: responseCode, referenced_instance_id: referenced,
    description: responseCode === 'RE' ? 'Rejected after all' : null,
    issues: responseCode === 'RE' ? [{ location: 'NA', description: '[BR-01] late', reason: 'BV' }] : [],
  });

  before(async () => {
    pki = await startTestPki();
    dns = await startFakeDns();
    smp = await startFakeSmp();
    ap1 = await pki.issue('ap', { cn: 'POP000001' });
    ap2 = await pki.issue('ap', { cn: 'POP000002' });
    artifacts = artifactsWithRelease({ id: 'fixture-refusing', effective: new Date(Date.now() - 86_400_000).toISOString(), rule: REFUSING_RELEASE });
    two = await accessPoint(ap2, { artifactsDir: artifacts, corner5: true });
    const company = two.demo.companies[0]!;
    buyer = { id: company.id, peppol_id: company.peppol_id };
    const table = path.join(pki.dir, 'static-endpoints-mls.json');
    const toTwo = { url: `${two.root}/as4`, certificate: ap2.files.cert };
    writeFileSync(table, JSON.stringify({ [buyer.peppol_id]: toTwo, '0242:000002': toTwo, [FS]: toTwo }));
    one = await accessPoint(ap1, { staticEndpoints: table });
    seller = one.demo.companies[0]!.id;
    // instance 1's MLS address is found the Peppol way: the SML names the SMP, whose signed entry names
    // instance 1 (instance 2 serves the FS participant itself, as the sandbox's corner 5: its own C3
    // filings and corner 5's MLS to its own address stay inside it; instance 1 reaches it by its table)
    const smpSigner = await pki.issue('smp');
    const register = (participant: string, documentType: string, process: string, url: string, certificate: TestCertificate) => {
      dns.records.set(smlHostName(parseSmpParticipantId(participant), ZONE), [smpNaptr(smp.url)]);
      smp.routes.set(groupPath(participant), { body: serviceGroup(smp.url, participant, [documentType]) });
      smp.routes.set(metadataPath(participant, documentType), {
        body: signedServiceMetadata(participant, documentType, [{ process, endpoints: [{ url, certificate: Buffer.from(certificate.certificate.rawData).toString('base64') }] }], {
          certificate: smpSigner.node, certificatePem: smpSigner.pem, privateKeyPem: smpSigner.keyPem, base64: Buffer.from(smpSigner.certificate.rawData).toString('base64'),
        }),
      });
    };
    register('0242:000001', MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID, `${one.root}/as4`, ap1);
    customer = (await one.call('POST', `/companies/${seller}/customers`, {
      name: company.name, vat_id: company.vat_id, ico: company.ico, dic: company.dic, peppol_id: buyer.peppol_id,
    })).body.id as string;
    hooks = await WebhookReceiver.start();
    const subscribed = await one.call('POST', '/connect/webhooks', { url: hooks.url(), description: 'MLS outcomes', events: 'invoice.delivered,invoice.rejected' });
    expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(201);
    await Promise.all([one.services.validator(), two.services.validator()]); // the rule sets load first: minutes on a loaded machine
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await dns?.close();
    await smp?.close();
    await hooks?.close();
    await pki?.close();
    if (artifacts) fs.rmSync(artifacts, { recursive: true, force: true });
  });

  it('an invoice sent, its MLS AP back: the sender\'s copy is delivered, with the MLS, and invoice.delivered goes out', async () => {
    delivered = await sendInvoice(null);
    const leg = delivered.peppol_delivery!;
    expect(leg, JSON.stringify(leg)).to.deep.include({ status: 'delivered', mls_response_code: 'AP', mls_description: null, mls_reasons: [], error: null });
    expect(leg.mls_received_at).to.be.a('string');
    expect(delivered.status).to.be.oneOf(['delivered', 'sent_fs', 'fs_acknowledged']);
    expect(await inboundCopies(delivered.invoice_number)).to.have.length(1);
    const hook = await eventually(async () => hooks.arrivals.find((h) => h.headers['x-webhook-event'] === 'invoice.delivered' && h.rawBody.toString('utf8').includes(delivered.id)), (h) => h !== undefined, { withinMs: 60_000 });
    expect(JSON.parse(hook!.rawBody.toString('utf8')).data).to.include({ invoice_id: delivered.id, message_id: leg.message_id });
    // corner 3 kept its answer, and sent it
    const answered = await eventually(async () => (await readAndFold(two.services.store, mlsIssuedStream(leg.message_id), mlsIssuedDecider)).state, (s) => s.status === 'issued' && s.sending === 'sent');
    expect(answered.status === 'issued' && answered.issued.mls?.to).to.equal('0242:000001');
  });

  it('both tax data documents go to corner 5 as Peppol messages, and its MLS acknowledges each: the sender\'s copy (C2) and the receiver\'s (C3)', async () => {
    const sent = await eventually(() => read(delivered.id), (i) => ['fs_acknowledged', 'rejected', 'failed'].includes(i.status), { withinMs: 120_000 });
    expect(sent.status, JSON.stringify((sent as unknown as { c5: unknown }).c5)).to.equal('fs_acknowledged');
    const c5 = (sent as unknown as { c5: { reporter_role: string; mls_response_code: string; submission_id: string } }).c5;
    expect(c5).to.include({ reporter_role: 'C2', mls_response_code: 'AP' });
    const copy = (await inboundCopies(delivered.invoice_number))[0] as unknown as { id: string };
    const received = await eventually(
      async () => (await two.call('GET', `/companies/${buyer.id}/invoices/${copy.id}`)).body as { status: string; c5: { reporter_role: string; mls_response_code: string } },
      (i) => ['fs_acknowledged', 'rejected', 'failed'].includes(i.status), { withinMs: 120_000 },
    );
    expect(received.status).to.equal('fs_acknowledged');
    expect(received.c5).to.include({ reporter_role: 'C3', mls_response_code: 'AP' });
    // corner 5 (instance 2's sandbox) took both, each as the Peppol message the invoice names
    const filed = await two.sandbox.fs.filed();
    expect(filed.find((f) => f.submission_id === c5.submission_id)).to.include({ reporter_role: 'C2', outcome: 'AP' });
    expect(filed.filter((f) => f.reporter_role === 'C3').length).to.be.at.least(1);
  });

  it('a document the receiver refuses: its MLS RE comes back, the sender\'s copy is rejected with the reasons, and the receiver holds nothing', async () => {
    const refused = await sendInvoice('REFUSE-ME, says the fixture release of the receiver');
    const leg = refused.peppol_delivery!;
    expect(leg.status, JSON.stringify(leg)).to.equal('rejected');
    expect(refused.status).to.equal('rejected');
    expect(leg.mls_response_code).to.equal('RE');
    expect(leg.mls_description).to.include('FIXTURE-REFUSE');
    expect(leg.mls_reasons.map((r) => r.reason_code)).to.include('BV');
    expect(leg.mls_reasons.some((r) => r.description.startsWith('[FIXTURE-REFUSE]'))).to.equal(true);
    expect(leg.findings.map((f) => f.rule)).to.include('FIXTURE-REFUSE');
    expect(await inboundCopies(refused.invoice_number)).to.have.length(0);
    const hook = await eventually(async () => hooks.arrivals.find((h) => h.headers['x-webhook-event'] === 'invoice.rejected' && h.rawBody.toString('utf8').includes(refused.id)), (h) => h !== undefined, { withinMs: 60_000 });
    const data = JSON.parse(hook!.rawBody.toString('utf8')).data as { findings: { rule: string }[] };
    expect(data.findings.map((f) => f.rule)).to.include('FIXTURE-REFUSE');
  });

  it('an MLS that matches nothing we sent changes nothing and is kept', async () => {
    const instanceId = randomUUID();
    const answer = await fetch(`${one.root}/as4`, { method: 'POST', ...body(mlsToOne(mlsFromTwo(`never-sent-${randomUUID()}`, 'AP'), instanceId)) });
    expect(answer.status).to.equal(200);
    expect(await answer.text()).to.include('Receipt').and.not.include('EBMS:');
    const kept = (await readAndFold(one.services.store, mlsReceivedStream(instanceId), mlsReceivedDecider)).state;
    expect(kept.status === 'received' && kept.received).to.deep.include({ matched: null, repeat: false, response_code: 'AP' });
    // and an MLS is never answered with an MLS (OP-MLS-03)
    expect((await readAndFold(one.services.store, mlsIssuedStream(instanceId), mlsIssuedDecider)).state.status).to.equal('none');
  });

  it('a second MLS for a delivered invoice changes nothing and is kept as a repeat', async () => {
    const instanceId = randomUUID();
    const answer = await fetch(`${one.root}/as4`, { method: 'POST', ...body(mlsToOne(mlsFromTwo(delivered.peppol_delivery!.message_id, 'RE'), instanceId)) });
    expect(answer.status).to.equal(200);
    const kept = (await readAndFold(one.services.store, mlsReceivedStream(instanceId), mlsReceivedDecider)).state;
    expect(kept.status === 'received' && kept.received).to.deep.include({ matched: { kind: 'invoice', id: delivered.id }, repeat: true, response_code: 'RE' });
    const after = await read(delivered.id);
    expect(after.peppol_delivery).to.deep.include({ status: 'delivered', mls_response_code: 'AP' });
  });

  it('an MLS to an address that is not ours is refused at the transport (EBMS:0004)', async () => {
    const other = buildUserMessage({
      messageId: `${randomUUID()}@POP000002`, timestamp: new Date(), conversationId: randomUUID(), processId: MLS_PROCESS_ID, documentTypeId: MLS_DOCUMENT_TYPE_ID,
      originalSender: '0242:000002', finalRecipient: '0242:000777',
      sbdh: wrapInSbdh({ sender: '0242:000002', receiver: '0242:000777', documentTypeId: MLS_DOCUMENT_TYPE_ID, processId: MLS_PROCESS_ID, instanceId: randomUUID(), createdAt: new Date(), countryC1: 'SK', document: mlsFromTwo(randomUUID(), 'AP') }),
    }, { signingKey: createPrivateKey(ap2.keyPem), signingCert: ap2.node, receiverCert: ap1.node });
    const answer = await fetch(`${one.root}/as4`, { method: 'POST', ...body(other) });
    expect(answer.status).to.equal(200);
    expect(await answer.text()).to.include('EBMS:0004');
  });
});

const body = (built: { contentType: string; body: Buffer }) => ({ headers: { 'content-type': built.contentType }, body: new Uint8Array(built.body) });
