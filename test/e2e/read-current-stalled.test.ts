import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { sapiError, sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { stallProjection } from '../support/stall-projection.ts';
import { newKey, sendRequest, ublBetween } from '../sapi/support/send.ts';

/**
 * A write's own read-your-writes wait can run out (another instance taking projection over after a
 * kill). A later read of the resource must then wait on its stream's last event and, still behind,
 * refuse honestly, never answer a 404 for something stored: the approval, the credit-note allowance,
 * a SAPI document's status, a webhook endpoint and a SAPI inbox document, as the invoice and
 * customer reads do (instances-takeover.test.ts).
 */
describe('single-resource reads while the read models are behind the stream', function () {
  this.timeout(240_000);
  let svc: TestService;
  let company = '';

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip(); // the stall is an open Postgres transaction
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    await svc.services.validator();
  });
  after(async () => svc?.close());

  const stall = () => stallProjection(svc.services.config.databaseUrl!);

  it('an invoice created past the bound: its approval and allowance are refused 503 read_model_behind to its organisation, 404 to another, then shown', async () => {
    const { invoiceId: drafted } = await ublBetween(svc, { companyId: company }, svc.demo.companies[1]!); // its customer, made before the stall
    const customerId = (await svc.call('GET', `/companies/${company}/invoices/${drafted}`)).body.customer_id as string;
    const stalled = await stall();
    let id = '';
    try {
      const created = await svc.call('POST', `/companies/${company}/invoices`, {
        issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customerId,
        lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      id = created.body.id;
      for (const path of [`/companies/${company}/invoices/${id}/approval`, `/companies/${company}/invoices/${id}/credit-notes/allowance`]) {
        const behind = await svc.call('GET', path);
        expect(behind.status, `${path}: ${JSON.stringify(behind.body)}`).to.equal(503);
        expect(behind.body.detail).to.include({ error: 'read_model_behind', version: 0 });
        const other = await svc.call('GET', path.replace(company, svc.demo.second_organisation.company_id), undefined, { 'x-api-key': svc.demo.second_organisation.api_key });
        expect(other.status, 'another organisation learns nothing').to.equal(404);
      }
    } finally {
      await stalled.release();
    }
    const approval = await eventually(() => svc.call('GET', `/companies/${company}/invoices/${id}/approval`), (r) => r.status === 200, { what: 'the approval once projection goes on' });
    expect(approval.body).to.deep.equal({ invoice_id: id, approval: null });
    const allowance = await svc.call('GET', `/companies/${company}/invoices/${id}/credit-notes/allowance`);
    expect(allowance.status, JSON.stringify(allowance.body)).to.equal(200);
  });

  it('a SAPI document accepted past the bound: its status is SAPI-UNAVAILABLE (retryable) to its client, SAPI-DOC-NOT-FOUND to another, then shown', async () => {
    const client = await sapiTestClient(svc, 0);
    const other = await sapiTestClient(svc, 1);
    const { xml } = await ublBetween(svc, { companyId: company }, svc.demo.companies[1]!);
    const stalled = await stall();
    let provider = '';
    try {
      const sent = await client.call('POST', '/document/send', sendRequest(xml, client.participant_id, svc.demo.companies[1]!.sapi.participant_id), { 'idempotency-key': newKey() });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
      provider = sent.body.providerDocumentId;
      const behind = await client.call('GET', `/document/status/${provider}`);
      expect(behind.status, JSON.stringify(behind.body)).to.equal(503);
      expect(sapiError(behind)).to.include({ code: 'SAPI-UNAVAILABLE', category: 'TEMPORARY', retryable: true });
      expect(behind.headers.get('retry-after')).to.equal('1');
      const foreign = await other.call('GET', `/document/status/${provider}`);
      expect(foreign.status).to.equal(404);
      expect(sapiError(foreign).code).to.equal('SAPI-DOC-NOT-FOUND');
    } finally {
      await stalled.release();
    }
    const shown = await eventually(() => client.call('GET', `/document/status/${provider}`), (r) => r.status === 200, { what: 'the status once projection goes on' });
    expect(shown.body.providerDocumentId).to.equal(provider);
  });

  it('a webhook endpoint registered past the bound: managing it is 503 read_model_behind to its organisation, 404 to another, then works', async () => {
    const stalled = await stall();
    let id: string | undefined;
    try {
      const made = await svc.call('POST', '/connect/webhooks', { url: 'http://127.0.0.1:9/stalled', events: 'invoice.created' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      id = made.body.id as string;
      const behind = await svc.call('POST', `/connect/webhooks/${id}/test`);
      expect(behind.status, JSON.stringify(behind.body)).to.equal(503);
      expect(behind.body.detail).to.include({ error: 'read_model_behind' });
      const other = await svc.call('DELETE', `/connect/webhooks/${id}`, undefined, { 'x-api-key': svc.demo.second_organisation.api_key });
      expect(other.status, 'another organisation learns nothing').to.equal(404);
    } finally {
      await stalled.release();
    }
    const deleted = await svc.call('DELETE', `/connect/webhooks/${id ?? ''}`);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expect(deleted.body).to.include({ id, is_active: false });
  });

  it('a SAPI inbox document acknowledged past the bound: its detail is SAPI-UNAVAILABLE to its client (never RECEIVED), SAPI-DOC-NOT-FOUND to another, then ACKNOWLEDGED', async () => {
    const sender = await sapiTestClient(svc, 0);
    const receiver = await sapiTestClient(svc, 1);
    const { xml } = await ublBetween(svc, { companyId: company }, svc.demo.companies[1]!);
    const sent = await sender.call('POST', '/document/send', sendRequest(xml, sender.participant_id, receiver.participant_id), { 'idempotency-key': newKey() });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    const documentId = await eventually(async () => {
      const documents = (await receiver.call('GET', '/document/receive?limit=100')).body.documents as { documentId: string; senderDocumentId?: string }[];
      const mine = await Promise.all(documents.map(async (d) => ((await receiver.call('GET', `/document/receive/${d.documentId}`)).body.payload === xml ? d.documentId : null)));
      return mine.find((d) => d !== null) ?? null;
    }, (d) => d !== null, { withinMs: 120_000, what: 'the sent document in company 1\'s inbox' });
    const stalled = await stall();
    try {
      const acknowledged = await receiver.call('POST', `/document/receive/${documentId}/acknowledge`);
      expect(acknowledged.status, JSON.stringify(acknowledged.body)).to.equal(200);
      const behind = await receiver.call('GET', `/document/receive/${documentId}`);
      expect(behind.status, `status ${behind.body.status}, error ${JSON.stringify(behind.body.error)}`).to.equal(503);
      expect(sapiError(behind)).to.include({ code: 'SAPI-UNAVAILABLE', retryable: true });
      const foreign = await sender.call('GET', `/document/receive/${documentId}`);
      expect(sapiError(foreign).code).to.equal('SAPI-DOC-NOT-FOUND');
    } finally {
      await stalled.release();
    }
    const shown = await eventually(() => receiver.call('GET', `/document/receive/${documentId}`), (r) => r.status === 200, { what: 'the detail once projection goes on' });
    expect(shown.body.status).to.equal('ACKNOWLEDGED');
  });
});
