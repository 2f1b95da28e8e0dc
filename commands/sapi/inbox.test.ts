import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { SapiInboxDocumentAcknowledged, SapiInboxDocumentReceived } from '../../events/sapi-inbox.ts';
import { specFor } from '../shared/given.ts';
import { SapiRefusal } from './errors.ts';
import { inboxHandle, isInboxHandle, sapiInboxDecider, type SapiInboxCommand } from './inbox.ts';

const given = specFor(sapiInboxDecider);
const COMPANY = '6f1c1e0e-2f4b-4c53-9d6e-0d8e3a4b5c6d';
const HANDLE = inboxHandle(COMPANY, 'msg-1');

const received: SapiInboxDocumentReceived = {
  type: 'SapiInboxDocumentReceived',
  data: {
    document_id: HANDLE, organisation_id: 'o1', company_id: COMPANY, invoice_id: 'i1', peppol_message_id: 'msg-1',
    document_type_id: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
    process_id: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', sender_participant_id: '9950:sk2020000001svctest', receiver_participant_id: '9950:sk2020000002svctest',
    creation_date_time: '2026-11-24T10:00:00.000Z', sender_document_id: 'FV-2026-1', payload: '<Invoice/>', received_at: '2026-11-24T10:00:01.000Z',
  },
};
const acknowledge = (changes: Partial<Extract<SapiInboxCommand, { type: 'AcknowledgeInboxDocument' }>> = {}): SapiInboxCommand => ({
  type: 'AcknowledgeInboxDocument', document_id: HANDLE, company_id: COMPANY, client_id: 'client-1', at: '2026-11-24T11:00:00.000Z', ...changes,
});
const acknowledged: SapiInboxDocumentAcknowledged = {
  type: 'SapiInboxDocumentAcknowledged', data: { document_id: HANDLE, company_id: COMPANY, acknowledged_by: 'client-1', acknowledged_at: '2026-11-24T11:00:00.000Z' },
};

describe('SAPI-SK inbox decider', () => {
  it('derives the handle from the company and the Peppol message id alone', () => {
    expect(isInboxHandle(HANDLE)).to.equal(true);
    expect(inboxHandle(COMPANY, 'msg-1')).to.equal(HANDLE);
    expect(inboxHandle(COMPANY, 'msg-2')).to.not.equal(HANDLE);
    expect(inboxHandle('another-company', 'msg-1')).to.not.equal(HANDLE);
    expect(isInboxHandle('svc_sapi_in_../../x')).to.equal(false);
  });

  it('records a received document once', () => given([]).when({ type: 'ReceiveInboxDocument', data: received.data }).then([received]));

  it('decides nothing when the same message is received again', () => given([received]).when({ type: 'ReceiveInboxDocument', data: received.data }).thenNothingHappened());

  it('acknowledges a received document at the time given', () => given([received]).when(acknowledge()).then([acknowledged]));

  it('keeps the first acknowledgement: a repeat decides nothing', () =>
    given([received, acknowledged]).when(acknowledge({ at: '2026-11-24T12:00:00.000Z', client_id: 'client-2' })).thenNothingHappened());

  it('refuses a document that does not exist as SAPI-DOC-NOT-FOUND', () => given([]).when(acknowledge()).thenThrows('SAPI-DOC-NOT-FOUND'));

  it("refuses another company's document as SAPI-DOC-NOT-FOUND, not showing that it exists", () => {
    const error = given([received]).when(acknowledge({ company_id: 'another-company' })).thenThrows(SapiRefusal);
    expect(error.sapiCode).to.equal('SAPI-DOC-NOT-FOUND');
  });

  it('folds to ACKNOWLEDGED with the first timestamp', () => {
    const state = [received, acknowledged].reduce(sapiInboxDecider.evolve, sapiInboxDecider.initialState);
    expect(state).to.deep.include({ status: 'ACKNOWLEDGED', acknowledgedAt: '2026-11-24T11:00:00.000Z' });
  });

  it('folds the stored v1 fixtures (frozen contracts) into an acknowledged document', () => {
    const fixture = (type: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: never };
    const events = ['SapiInboxDocumentReceived', 'SapiInboxDocumentAcknowledged'].map(fixture) as unknown as (SapiInboxDocumentReceived | SapiInboxDocumentAcknowledged)[];
    const state = events.reduce(sapiInboxDecider.evolve, sapiInboxDecider.initialState);
    expect(state).to.deep.include({ status: 'ACKNOWLEDGED', acknowledgedAt: '2026-11-24T10:20:00.000Z' });
    expect(isInboxHandle(events[0]!.data.document_id)).to.equal(true);
  });
});
