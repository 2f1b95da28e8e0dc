import { expect } from 'chai';
import { MLS_DOCUMENT_TYPE_ID, SK_TAX_DATA_DOCUMENT_TYPE_ID } from '../../src/modules/delivery/peppol/identifiers.ts';
import { pino } from 'pino';
import { createApp } from '../../src/doors/native/app.ts';
import { checkSandboxRules, sandbox as sandboxNetworks } from '../../src/modules/delivery/sandbox/index.ts';
import type { OutboundPeppolMessage } from '../../src/modules/delivery/peppol/peppol-network.ts';
import { openService, type Service } from '../../src/service.ts';
import { listen, type Running } from '../api/support/http.ts';
import { eventually } from '../support/poll.ts';
import { sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest, ublBetween } from './support/send.ts';

const documentsOf = async (services: Service, clientId: string) =>
  Number(((await services.readModels.query('SELECT count(*)::int AS n FROM sapi_documents WHERE client_id = $1', [clientId])) as { n: number }[])[0]?.n);

describe('SAPI-SK send: one document per Idempotency-Key, in parallel and across a restart', function () {
  this.timeout(600_000);
  let svc: TestService;
  let reopened: { services: Service; running: Running } | undefined;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator();
  });
  after(async () => {
    if (reopened) {
      await reopened.running.close();
      await reopened.services.close();
    }
    await svc?.close();
  });

  it('16 parallel identical sends: one document, one transmission, 16 identical answers; the same after a restart', async () => {
    const client = await sapiTestClient(svc, 0);
    const { xml } = await ublBetween(svc, { companyId: svc.demo.companies[0]!.id }, svc.demo.companies[1]!);
    const body = sendRequest(xml, client.participant_id, svc.demo.companies[1]!.sapi.participant_id);
    const key = newKey();
    const transmitted: string[] = [];
    const network = svc.sandbox.peppol;
    const original = network.send;
    network.send = async (message: OutboundPeppolMessage) => {
      // the same network carries the TDDs to corner 5 and the MLS: the documents' own messages are what is counted
      if (message.document_type_id !== SK_TAX_DATA_DOCUMENT_TYPE_ID && message.document_type_id !== MLS_DOCUMENT_TYPE_ID) transmitted.push(message.message_id);
      return original(message);
    };
    try {
      const before = await documentsOf(svc.services, client.client_id);
      const answers = await Promise.all(Array.from({ length: 16 }, () => client.call('POST', '/document/send', body, { 'idempotency-key': key })));
      expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).to.deep.equal(Array(16).fill(202));
      for (const answer of answers) expect(answer.body).to.deep.equal(answers[0]!.body);
      expect(await documentsOf(svc.services, client.client_id)).to.equal(before + 1);
      const id = answers[0]!.body.providerDocumentId as string;
      await eventually(async () => (await client.call('GET', `/document/status/${id}`)).body.status, (s) => s === 'SENT', { what: 'SENT' });
      expect(transmitted).to.have.length(1);

      // the restart: a new service on the same database answers the key from the event store
      await svc.services.close();
      const services = await openService(svc.services.config, {
        log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
        networks: (core, cfg, receive, ourSpis) => sandboxNetworks(core, cfg.delivery, checkSandboxRules(cfg.delivery.fsSandboxRejectRules), receive, ourSpis),
      });
      svc.services.close = async () => {}; // closed above; the harness still drops the database
      reopened = { services, running: await listen(createApp(services, { validateResponses: true })) };
      await services.validator();
      const again = await sapiTestClient({ ...svc, services, root: reopened.running.base }, 0);
      const afterRestart = await Promise.all(Array.from({ length: 16 }, () => again.call('POST', '/document/send', body, { 'idempotency-key': key })));
      for (const answer of afterRestart) {
        expect(answer.status).to.equal(202);
        expect(answer.body).to.deep.equal(answers[0]!.body);
      }
      expect(await documentsOf(services, client.client_id)).to.equal(before + 1);
      expect((await again.call('GET', `/document/status/${id}`)).body.status).to.equal('SENT');
      const conflict = await again.call('POST', '/document/send', { ...body, metadata: { ...body.metadata, documentId: 'ANOTHER' } }, { 'idempotency-key': key });
      expect(conflict.status).to.equal(409);
      expect(conflict.body.error.code).to.equal('SAPI-IDEMPOTENCY-CONFLICT');
    } finally {
      network.send = original;
    }
  });

  it('a repeat waits for the first send while it runs; past the 30 s bound it is SAPI-IDEMPOTENCY-IN-PROGRESS (retryable), and then gets the answer', async () => {
    const services = reopened?.services ?? svc.services;
    const root = reopened?.running.base ?? svc.root;
    const client = await sapiTestClient({ ...svc, services, root }, 0);
    const { xml } = await ublBetween({ demo: svc.demo, api: `${root}/api/v1` }, { companyId: svc.demo.companies[0]!.id }, svc.demo.companies[1]!, { lines: 2 });
    const body = sendRequest(xml, client.participant_id, svc.demo.companies[1]!.sapi.participant_id);
    const key = newKey();
    const validator = await services.validator();
    const validate = validator.validate.bind(validator);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    (validator as { validate: typeof validate }).validate = async (input) => {
      started = true;
      await held;
      return validate(input);
    };
    try {
      const first = client.call('POST', '/document/send', body, { 'idempotency-key': key });
      await eventually(async () => started, (s) => s, { what: 'the first send validating' });
      const waited = Date.now();
      const repeat = await client.call('POST', '/document/send', body, { 'idempotency-key': key });
      expect(Date.now() - waited).to.be.at.least(29_000);
      expect(repeat.status).to.equal(409);
      expect(repeat.body.error).to.include({ code: 'SAPI-IDEMPOTENCY-IN-PROGRESS', retryable: true });
      expect(repeat.headers.get('retry-after')).to.equal('1');
      release();
      const answered = await first;
      expect(answered.status).to.equal(202);
      const later = await client.call('POST', '/document/send', body, { 'idempotency-key': key });
      expect(later.body).to.deep.equal(answered.body);
    } finally {
      release();
      (validator as { validate: typeof validate }).validate = validate;
    }
  });
});
