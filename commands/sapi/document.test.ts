import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { SapiDocumentEvent } from '../../events/sapi-documents.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { sapiReceiptOf } from './document-receipt.ts';
import { reportDeadline, sapiDocumentDecider, type SapiDocumentCommand } from './document.ts';

/** The stored fixture of a type (test/fixtures/events): frozen contracts fold here. */
const stored = <T extends SapiDocumentEvent['type']>(type: T, version = 1): Extract<SapiDocumentEvent, { type: T }> => {
  const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v${version}.json`, import.meta.url), 'utf8')) as { type: T; data: unknown };
  return { type: f.type, data: f.data } as Extract<SapiDocumentEvent, { type: T }>;
};
const given = specFor(sapiDocumentDecider);
const accepted = stored('SapiDocumentAccepted');
const processing = stored('SapiDocumentProcessing');
const sent = stored('SapiDocumentSent', 2);
const submitted = stored('SapiFsSubmitted');
const at = '2026-11-24T15:05:00.000Z';
const verdict = (outcome: 'acknowledged' | 'rejected', submission = submitted.data.fs_submission_id): SapiDocumentCommand => ({
  type: 'RecordSapiFsVerdict', fs_submission_id: submission, outcome, tdd_uuid: submitted.data.tdd_uuid, mls_response_code: outcome === 'acknowledged' ? 'AP' : 'RE',
  reasons: outcome === 'rejected' ? { description: 'rejected', issues: [{ rule: 'R1', message: 'bad', location: null }] } : null, at,
});

describe('SAPI-SK outbound document', () => {
  it('is accepted once: a second acceptance on the stream is refused', () => {
    given([]).when({ type: 'AcceptSapiDocument', data: accepted.data }).then([accepted]);
    given([accepted]).when({ type: 'AcceptSapiDocument', data: accepted.data }).thenThrows('sapi_document_exists');
  });

  it('goes ACCEPTED → PROCESSING → SENT; a repeated outcome decides nothing', () => {
    given([accepted]).when({ type: 'StartSapiProcessing', at }).then([{ type: 'SapiDocumentProcessing', data: { document_id: accepted.data.document_id, started_at: at } }]);
    given([accepted, processing]).when({ type: 'StartSapiProcessing', at }).then([]);
    const [event] = sapiDocumentDecider.decide({ type: 'RecordSapiSent', as4: null, at }, fold(sapiDocumentDecider, [accepted, processing]));
    expect(event).to.deep.include({ type: 'SapiDocumentSent' });
    expect(event!.data).to.include({ peppol_message_id: accepted.data.peppol_message_id, sender_participant_id: accepted.data.metadata.sender_participant_id, as4: null });
    given([accepted, processing, sent]).when({ type: 'RecordSapiSent', as4: null, at }).then([]);
    given([accepted]).when({ type: 'RecordSapiSent', as4: null, at }).thenThrows('sapi_document_not_processing');
  });

  it('keeps the receiver\'s AS4 receipt on SENT, as the command brings it', () => {
    const as4 = { message_id: `${accepted.data.peppol_message_id}@POP000001`, receipt: '<env:Envelope>…signed eb:Receipt…</env:Envelope>', receiving_ap: 'POP000002' };
    const [event] = sapiDocumentDecider.decide({ type: 'RecordSapiSent', as4, at }, fold(sapiDocumentDecider, [accepted, processing]));
    expect(event?.type === 'SapiDocumentSent' && event.data.as4).to.deep.equal(as4);
  });

  it('shows the AS4 receipt kept on SENT; none before SENT or for a sandbox send (as4 null): peppol_receipt_not_found', () => {
    const as4 = { message_id: `${accepted.data.peppol_message_id}@POP000001`, receipt: '<env:Envelope>…</env:Envelope>', receiving_ap: 'POP000002' };
    const sentOverAs4 = { ...sent, data: { ...sent.data, as4 } };
    expect(sapiReceiptOf([accepted, processing, sentOverAs4])).to.deep.equal({ ...as4, peppol_message_id: sent.data.peppol_message_id, sent_at: sent.data.sent_at });
    expect(() => sapiReceiptOf([accepted, processing])).to.throw().with.property('code', 'peppol_receipt_not_found');
    expect(() => sapiReceiptOf([accepted, processing, sent])).to.throw().with.property('code', 'peppol_receipt_not_found');
  });

  it('fails from ACCEPTED or PROCESSING, never after SENT', () => {
    const fail: SapiDocumentCommand = { type: 'RecordSapiFailed', reason: 'refused', findings: [], rejected_by_receiver: false, at };
    expect(sapiDocumentDecider.decide(fail, fold(sapiDocumentDecider, [accepted]))[0]?.type).to.equal('SapiDocumentFailed');
    expect(sapiDocumentDecider.decide(fail, fold(sapiDocumentDecider, [accepted, processing]))[0]?.type).to.equal('SapiDocumentFailed');
    given([accepted, processing, sent]).when(fail).then([]);
  });

  it('files with FS once, and takes the verdict of its own submission only: ACKNOWLEDGED, or FAILED with the reasons', () => {
    given([accepted, processing, sent, submitted]).when({ type: 'RecordSapiFsSubmitted', fs_submission_id: 'other', tdd_uuid: 'x', at }).then([]);
    const ack = sapiDocumentDecider.decide(verdict('acknowledged'), fold(sapiDocumentDecider, [accepted, processing, sent, submitted]));
    expect(ack[0]?.data).to.include({ provider_document_id: accepted.data.provider_document_id, organisation_id: accepted.data.organisation_id, invoice_number: accepted.data.invoice_number, acknowledged_at: at, mls_response_code: 'AP' });
    given([accepted, processing, sent, submitted]).when(verdict('acknowledged', 'another')).then([]);
    const state = fold(sapiDocumentDecider, [accepted, processing, sent, submitted, ...sapiDocumentDecider.decide(verdict('rejected'), fold(sapiDocumentDecider, [accepted, processing, sent, submitted]))]);
    expect(state?.fs).to.include({ status: 'FAILED', error_message: 'rejected; R1: bad' });
  });

  it('the stored fixtures fold into the status the API shows', () => {
    const state = fold(sapiDocumentDecider, [accepted, processing, stored('SapiDeliveryAttemptFailed'), sent, submitted, stored('SapiFsAcknowledged')]);
    expect(state).to.deep.include({ status: 'SENT', peppol_attempts: 1, client_document_id: 'FA-2026-0001', received_at: accepted.data.accepted_at });
    expect(state?.fs).to.include({ status: 'ACKNOWLEDGED', submission_id: submitted.data.fs_submission_id, report_deadline: '2026-11-25' });
    expect(fold(sapiDocumentDecider, [accepted, processing, stored('SapiDocumentFailed')])?.status).to.equal('FAILED');
    expect(fold(sapiDocumentDecider, [accepted, processing, sent, submitted, stored('SapiFsRejected')])?.fs.error_message).to.include('SK-FS-01');
    expect(fold(sapiDocumentDecider, [accepted, processing, sent, stored('SapiFsFailed')])?.fs).to.include({ status: 'FAILED' });
  });

  it('retries the legs by the delivery rule: the next attempt named, the leg failed with the last, a refusal at once', () => {
    const policy = { maxAttempts: 2, retryBaseMs: 1_000 };
    const failed = (leg: 'peppol' | 'fs', kind: 'transport' | 'refused'): SapiDocumentCommand => ({ type: 'RecordSapiAttemptFailed', leg, reason: 'no answer', failure: { kind }, policy, at });
    const first = sapiDocumentDecider.decide(failed('peppol', 'transport'), fold(sapiDocumentDecider, [accepted, processing]));
    expect(first).to.deep.equal([{ type: 'SapiDeliveryAttemptFailed', data: { document_id: accepted.data.document_id, leg: 'peppol', reason: 'no answer', retry_at: '2026-11-24T15:05:01.000Z', failed_at: at } }]);
    expect(fold(sapiDocumentDecider, [accepted, processing, ...first])).to.include({ peppol_attempts: 1, peppol_next_attempt_at: '2026-11-24T15:05:01.000Z' });
    const last = sapiDocumentDecider.decide(failed('peppol', 'transport'), fold(sapiDocumentDecider, [accepted, processing, ...first]));
    expect(last.map((e) => e.type)).to.deep.equal(['SapiDeliveryAttemptFailed', 'SapiDocumentFailed']);
    expect(last[1]?.data).to.include({ reason: 'gave up after 2 attempts: no answer', rejected_by_receiver: false });
    expect(sapiDocumentDecider.decide(failed('peppol', 'refused'), fold(sapiDocumentDecider, [accepted, processing])).map((e) => e.type)).to.deep.equal(['SapiDocumentFailed']);
    expect(sapiDocumentDecider.decide(failed('fs', 'refused'), fold(sapiDocumentDecider, [accepted, processing, sent])).map((e) => e.type)).to.deep.equal(['SapiFsFailed']);
  });

  it('fails the FS leg when no verdict came by the deadline, and not before', () => {
    const filed = fold(sapiDocumentDecider, [accepted, processing, sent, submitted]);
    const overdue = (when: string): SapiDocumentCommand => ({ type: 'RecordSapiFsVerdictOverdue', fs_submission_id: submitted.data.fs_submission_id, deadline_ms: 3_600_000, at: when });
    const submittedAt = Date.parse(submitted.data.submitted_at);
    expect(sapiDocumentDecider.decide(overdue(new Date(submittedAt + 3_599_999).toISOString()), filed)).to.deep.equal([]);
    const [failed] = sapiDocumentDecider.decide(overdue(new Date(submittedAt + 3_600_000).toISOString()), filed);
    expect(failed?.type).to.equal('SapiFsFailed');
    expect(failed?.data).to.have.property('reason').that.matches(/^FS gave no verdict on submission .* within 1 h of filing/);
  });

  describe('the receiving Access Point\'s MLS', () => {
    const mlsStored = stored('SapiDocumentMlsReceived');
    const { document_id: _id, ...mlsData } = mlsStored.data;
    const apply = (over: Partial<typeof mlsData> = {}): SapiDocumentCommand => ({ type: 'ApplySapiMls', ...mlsData, ...over });

    it('is kept beside the status once the message left (PROCESSING, SENT, or FAILED on our side), which it does not move', () => {
      given([accepted, processing, sent]).when(apply()).then([mlsStored]);
      given([accepted, processing]).when(apply()).then([mlsStored]);
      const failed = stored('SapiDocumentFailed');
      given([accepted, processing, failed]).when(apply()).then([mlsStored]);
      const state = fold(sapiDocumentDecider, [accepted, processing, sent, mlsStored]);
      expect(state).to.deep.include({ status: 'SENT', updated_at: mlsData.received_at });
      expect(state?.mls).to.deep.equal({ response_code: 'RE', description: mlsData.description, issues: mlsData.issues, received_at: mlsData.received_at });
    });

    it('answers only the document\'s own Peppol message, and only after it left', () => {
      given([accepted, processing, sent]).when(apply({ peppol_message_id: 'another-message' })).then([]);
      given([accepted]).when(apply()).then([]);
    });

    it('is taken once: a second MLS decides nothing (OP-MLS-02)', () => {
      given([accepted, processing, sent, mlsStored]).when(apply({ mls_id: 'a-second-mls', response_code: 'AP', description: null, issues: [] })).then([]);
    });

    it('an AP is kept with no reasons; none is shown until one came', () => {
      const [ap] = sapiDocumentDecider.decide(apply({ response_code: 'AP', description: null, issues: [] }), fold(sapiDocumentDecider, [accepted, processing, sent]));
      expect(fold(sapiDocumentDecider, [accepted, processing, sent, ap!])?.mls).to.deep.include({ response_code: 'AP', issues: [] });
      expect(fold(sapiDocumentDecider, [accepted, processing, sent])?.mls).to.equal(null);
    });
  });

  it('reportDeadline is the IssueDate + 5 calendar days', () => {
    expect(reportDeadline('2026-11-20')).to.equal('2026-11-25');
    expect(reportDeadline('2026-12-29')).to.equal('2027-01-03');
  });
});
