import { expect } from 'chai';
import { documentIdOf, sapiDocumentStream } from '../../events/sapi-documents.ts';
import { eventually } from '../support/poll.ts';
import { sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest, ublBetween } from './support/send.ts';

describe('SAPI-SK status: an FS rejection', function () {
  this.timeout(600_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ delivery: { fsSandboxRejectRules: ['reject-all'] } });
    await svc.services.validator();
  });
  after(async () => svc?.close());

  it('shows fs FAILED with FS\'s reasons as errorMessage; the document stays SENT; SapiFsRejected carries what a c5_submission webhook needs', async () => {
    const client = await sapiTestClient(svc, 0);
    const { xml } = await ublBetween(svc, { companyId: svc.demo.companies[0]!.id }, svc.demo.companies[1]!);
    const answer = await client.call('POST', '/document/send', sendRequest(xml, client.participant_id, svc.demo.companies[1]!.sapi.participant_id), { 'idempotency-key': newKey() });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const status = await eventually(async () => (await client.call('GET', `/document/status/${answer.body.providerDocumentId}`)).body,
      (s) => s.fs.status === 'FAILED', { what: 'fs FAILED', withinMs: 60_000 });
    expect(status.status).to.equal('SENT');
    expect(status.fs.submissionId).to.be.a('string');
    expect(status.fs.acknowledgedAt).to.equal(null);
    expect(status.fs.errorMessage).to.include('SANDBOX-FS-99');
    const events = await svc.services.store.readStream(sapiDocumentStream(documentIdOf(answer.body.providerDocumentId)!));
    // the last FS event (the receiving Access Point's MLS may come after it on the same stream)
    const rejected = events.filter((e) => e.type.startsWith('SapiFs')).at(-1)!;
    expect(rejected.type).to.equal('SapiFsRejected');
    expect(rejected.data).to.include({ provider_document_id: answer.body.providerDocumentId, organisation_id: svc.demo.organisation_id, mls_response_code: 'RE', direction: 'sent' });
    expect((rejected.data as { reasons: { issues: unknown[] } }).reasons.issues).to.have.length.greaterThan(0);
  });
});
