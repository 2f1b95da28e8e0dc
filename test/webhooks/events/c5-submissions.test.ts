import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/platform/eventstore/port.ts';
import { webhookEventsFor } from '../../../src/modules/webhooks/events/index.ts';
import { fixture, record } from './stories.ts';

/** A store holding the stories' events: readStream by stream id, in order. */
const storeOf = (events: readonly RecordedEvent[]) => ({ readStream: async (id: string) => events.filter((e) => e.streamId === id) });

describe('webhooks of a document sent through SAPI-SK (c5_submission)', () => {
  const company = fixture('CompanyRegistered').data;
  const sapi = { company_id: company.company_id, organisation_id: company.organisation_id };

  it('raises invoice.fs_acknowledged on resource c5_submission: invoice_id and supplier_vat_id null, the provider document id, the company\'s workspace', async () => {
    const events = record('c5-ack', ['CompanyRegistered', { type: 'SapiFsAcknowledged', data: sapi }]);
    const [out, ...more] = await webhookEventsFor(storeOf(events), events[1]!);
    expect(more).to.have.length(0);
    expect(out).to.include({ type: 'invoice.fs_acknowledged', organisation_id: company.organisation_id, company_id: company.company_id, workspace_id: company.workspace_id });
    const body = JSON.parse(out!.body);
    expect(body.resource).to.deep.equal({ type: 'c5_submission', id: 'svc_sapi_doc_5f0c8a8e6a434f0e9b7e2d8c1a4b7c10' });
    expect(body.data).to.deep.equal({
      invoice_id: null, invoice_number: '2026000001', direction: 'sent', supplier_vat_id: null, provider_document_id: 'svc_sapi_doc_5f0c8a8e6a434f0e9b7e2d8c1a4b7c10',
      reporter_role: 'C2', state: 'acknowledged', tdd_uuid: '4b5c6d7e-8f90-5a1b-9c2d-3e4f5a6b7c8d', mls_response_code: 'AP',
      acknowledged_at: '2026-11-24T15:02:17.600Z', rejected_at: null, reasons: null,
    });
    // a repeated reaction builds the same id and bytes
    expect((await webhookEventsFor(storeOf(events), events[1]!))[0]).to.deep.equal(out);
  });

  it('raises invoice.fs_rejected with FS\'s reasons', async () => {
    const events = record('c5-rej', ['CompanyRegistered', { type: 'SapiFsRejected', data: sapi }]);
    const [out] = await webhookEventsFor(storeOf(events), events[1]!);
    const body = JSON.parse(out!.body);
    expect(out!.type).to.equal('invoice.fs_rejected');
    expect(body.resource.type).to.equal('c5_submission');
    expect(body.data).to.include({ state: 'rejected', acknowledged_at: null, invoice_id: null });
    expect(body.data.reasons).to.deep.equal(fixture('SapiFsRejected').data.reasons);
  });
});
