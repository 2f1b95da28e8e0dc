import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { usageMonth } from '../../commands/limits/usage.ts';
import { SAPI_SCOPES } from '../../commands/sapi/scopes.ts';
import { documentIdOf, sapiDocumentStream } from '../../events/sapi-documents.ts';
import { usageStream, type InvoiceCounted } from '../../events/usage.ts';
import { issueSapiClient, systemMetadata } from '../../src/modules/tenancy/tenancy.ts';
import { issueSapiAccessToken } from '../../src/modules/sapi/auth/tokens.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { sapiError, sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest, ublBetween } from './support/send.ts';

describe('SAPI-SK send: the monthly invoice quota (the native counter)', function () {
  this.timeout(600_000);
  let svc: TestService;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator();
  });
  after(async () => svc?.close());

  /** The organisation's month already counts `count` invoices. */
  const countedAlready = (organisationId: string, count: number) => {
    const month = usageMonth(svc.services.clock.now());
    const data: InvoiceCounted['data'] = {
      organisation_id: organisationId, invoice_id: randomUUID(), month, count, overage: false, source: 'api', counted_at: svc.services.clock.now().toISOString(),
    };
    return svc.services.store.append(usageStream(organisationId, month), [{ id: randomUUID(), type: 'InvoiceCounted', data, metadata: {} }], 'any');
  };
  const counts = async (organisationId: string) =>
    (await svc.services.store.readStream(usageStream(organisationId, usageMonth(svc.services.clock.now())))).map((e) => e.data as InvoiceCounted['data']);

  it('20 parallel sends at limit − 1 on a plan without overage admit exactly one; the others are 402 SAPI-QUOTA-INVOICE-LIMIT with plan and limit', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Free'); // 10 invoices a month, no overage
    const [company] = (await svc.services.readModels.query('SELECT peppol_id FROM companies WHERE id = $1', [org.companyId])) as { peppol_id: string }[];
    const installed = await issueSapiClient(svc.services, { organisationId: org.organisationId, companyId: org.companyId, participantId: company!.peppol_id }, systemMetadata('test'));
    await svc.services.projections.shown([installed.position], 30_000);
    const token = await issueSapiAccessToken(await svc.services.identity.ring(), {
      client_id: installed.client_id, organisation_id: org.organisationId, company_id: org.companyId, participant_id: company!.peppol_id,
      scopes: [...SAPI_SCOPES], plan: 'Solo Free', family_id: randomUUID(),
    }, svc.services.clock.now());
    const { xml } = await ublBetween(svc, { companyId: org.companyId, apiKey: org.apiKey }, svc.demo.companies[1]!);
    await countedAlready(org.organisationId, 9);

    const body = sendRequest(xml, company!.peppol_id, svc.demo.companies[1]!.sapi.participant_id);
    const answers = await Promise.all(Array.from({ length: 20 }, async () => {
      const response = await fetch(`${svc.root}/sapi/document/send`, {
        method: 'POST', body: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-peppol-participant-id': company!.peppol_id, 'idempotency-key': newKey() },
      });
      return { status: response.status, body: await response.json() as any, headers: response.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
    }));
    expect(answers.filter((a) => a.status === 202), JSON.stringify(answers.map((a) => a.body))).to.have.length(1);
    const over = answers.filter((a) => a.status === 402);
    expect(over).to.have.length(19);
    for (const answer of over) {
      const error = sapiError(answer);
      expect(error).to.include({ code: 'SAPI-QUOTA-INVOICE-LIMIT', category: 'QUOTA', retryable: false });
      expect(error.details).to.deep.equal([{ field: 'plan', issue: 'Solo Free' }, { field: 'limit', issue: '10' }]);
    }
    // only the accepted send counted, as source sapi
    const month = await counts(org.organisationId);
    expect(month.map((c) => c.count)).to.deep.equal([9, 10]);
    expect(month[1]).to.include({ source: 'sapi', overage: false });
  });

  it('on a plan with overage the send past the quota proceeds, counted and marked as overage on the document', async () => {
    const client = await sapiTestClient(svc, 0); // the demo plan, Team Business: 1000 a month, with overage
    const { xml } = await ublBetween(svc, { companyId: svc.demo.companies[0]!.id }, svc.demo.companies[1]!);
    await countedAlready(svc.demo.organisation_id, 1000);
    const answer = await client.call('POST', '/document/send', sendRequest(xml, client.participant_id, svc.demo.companies[1]!.sapi.participant_id), { 'idempotency-key': newKey() });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const last = (await counts(svc.demo.organisation_id)).at(-1)!;
    expect(last).to.include({ count: 1001, overage: true, source: 'sapi' });
    const [accepted] = await svc.services.store.readStream(sapiDocumentStream(documentIdOf(answer.body.providerDocumentId)!));
    expect(accepted?.data).to.include({ overage: true });
    expect(last.invoice_id).to.equal(documentIdOf(answer.body.providerDocumentId));
  });
});
