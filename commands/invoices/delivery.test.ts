import { expect } from 'chai';
import type { DeliveryEvent, InvoiceReceived } from '../../events/delivery.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { fold } from '../shared/decider.ts';
import { stableUuid } from '../shared/stable-id.ts';
import { NotFound } from '../shared/access.ts';
import { specFor } from '../shared/given.ts';
import { invoiceDecider, type InvoiceCommand } from './decider.ts';
import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from './delivery.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import type { InvoiceStreamEvent } from './state.ts';
import { at, content, created, lists, otherCompany, otherOrganisation, scope } from './test-fixtures.ts';
import { computeTotals } from './totals.ts';

const buyerId = '9950:sk2020000004svctest';
const addressedContent = { ...content, buyer: { ...content.buyer, peppol_id: buyerId } };
const addressed = { ...created, data: { ...created.data, content: addressedContent } } as InvoiceEvent;
const given = specFor(invoiceDecider);
const policy = { maxAttempts: 3, retryBaseMs: 1000 };
const send: InvoiceCommand = { type: 'SendInvoice', invoice_id: 'i1', scope, queued_by: 'k1', peppol_message_id: 'm1', code_lists: lists, at };
const queued: DeliveryEvent = { type: 'InvoiceQueued', data: { invoice_id: 'i1', queued_by: 'k1', peppol_message_id: 'm1', receiver_participant_id: buyerId, queued_at: at, fs_message_id: stableUuid('fs-c2', 'm1') } };
const audit: DeliveryEvent = { type: 'InvoiceAuditEntryRecorded', data: { invoice_id: 'i1', action: 'sent_peppol', result: 'PENDING', actor_id: 'k1', at } };
const sent: DeliveryEvent = {
  type: 'PeppolMessageSent',
  data: { invoice_id: 'i1', peppol_message_id: 'm1', sender_participant_id: content.supplier.peppol_id ?? '', receiver_participant_id: buyerId, document_type_id: 'doc', sent_at: at, as4: null },
};
const delivered: DeliveryEvent = { type: 'PeppolDeliveryConfirmed', data: { invoice_id: 'i1', peppol_message_id: 'm1', delivered_at: at } };
const peppolFailed: DeliveryEvent = { type: 'PeppolDeliveryFailed', data: { invoice_id: 'i1', peppol_message_id: 'm1', reason: 'unknown participant', findings: [], attempts: 0, failed_at: at } };
const fsSubmitted: DeliveryEvent = { type: 'FsCopySubmitted', data: { invoice_id: 'i1', fs_submission_id: 's1', tdd_uuid: 't1', reporter_role: 'C2', submitted_at: at } };
const fsAcked: DeliveryEvent = { type: 'FsCopyAcknowledged', data: { invoice_id: 'i1', fs_submission_id: 's1', tdd_uuid: 't1', mls_response_code: 'AP', acknowledged_at: at } };
const fsRejected: DeliveryEvent = {
  type: 'FsCopyRejected',
  data: { invoice_id: 'i1', fs_submission_id: 's1', tdd_uuid: 't1', mls_response_code: 'RE', reasons: { description: 'no', issues: [] }, rejected_at: at },
};
const fsFailed: DeliveryEvent = { type: 'FsFilingFailed', data: { invoice_id: 'i1', reason: 'FS down', attempts: 5, failed_at: at } };
// the receiving Access Point's MLS RE, and the leg it ends (mlsOutcome's pair)
const mlsRejected: DeliveryEvent = {
  type: 'PeppolMlsReceived',
  data: { invoice_id: 'i1', peppol_message_id: 'm1', mls_id: 'x1', response_code: 'RE', description: 'Rejected', issues: [{ location: 'NA', description: '[BR-CO-15] totals', reason: 'BV' }], received_at: at },
};
const rejectedByMls: DeliveryEvent = { type: 'PeppolDeliveryFailed', data: { ...peppolFailed.data, reason: 'MLS RE', rejected_by_receiver: true } } as DeliveryEvent;
const invoiceNotFound = (e: NotFound) => expect(e.code).to.equal('invoice_not_found');
const statusAfter = (...events: InvoiceStreamEvent[]) => {
  const state = fold(invoiceDecider, events);
  return state.status;
};

describe('invoice delivery', () => {
  describe('send', () => {
    it('queues a draft, validated or approved invoice with the audit entry sent_peppol PENDING', () => {
      given([addressed]).when(send).then([queued, audit]);
      given([addressed, { type: 'InvoiceValidated', data: { invoice_id: 'i1', validated_by: 'k1', validated_at: at } }]).when(send).then([queued, audit]);
      expect(statusAfter(addressed, queued, audit)).to.equal('queued');
    });

    it('refuses any other status with invalid_status (a second send of a queued invoice queues nothing)', () => {
      given([addressed, queued, audit]).when(send).thenThrows('invalid_status', { status: 'queued' });
      given([addressed, queued, sent, delivered]).when(send).thenThrows('invalid_status', { status: 'delivered' });
    });

    it('refuses an invoice whose business rules fail, listing the findings, and queues nothing', () => {
      const broken = { ...addressed, data: { ...addressed.data, content: { ...content, buyer: { ...content.buyer, peppol_id: buyerId }, lines: [{ ...content.lines[0]!, vat_rate: '0' }] } } } as InvoiceEvent;
      expect(() => invoiceDecider.decide(send, fold(invoiceDecider, [broken]))).to.throw(InvoiceRuleViolation);
    });

    it('refuses an invoice without the buyer’s Peppol address (PEPPOL-EN16931-R010)', () => {
      let error: unknown;
      try {
        invoiceDecider.decide(send, fold(invoiceDecider, [created]));
      } catch (e) {
        error = e;
      }
      expect((error as InvoiceRuleViolation).findings.map((f) => f.rule)).to.deep.equal(['PEPPOL-EN16931-R010']);
    });

    it('an invoice of another organisation, or of another company of the same one, is not found', () => {
      given([addressed]).when({ ...send, scope: otherOrganisation }).thenThrows(NotFound, invoiceNotFound);
      given([addressed]).when({ ...send, scope: otherCompany }).thenThrows(NotFound, invoiceNotFound);
    });
  });

  describe('the single status of two parallel legs', () => {
    const legs = (...events: DeliveryEvent[]): Delivery => events.reduce(evolveDelivery, NO_DELIVERY);
    it('follows the Peppol leg until the buyer has the invoice, then the FS leg', () => {
      expect(deliveryStatus(legs())).to.equal(null);
      expect(deliveryStatus(legs(queued))).to.equal('queued');
      expect(deliveryStatus(legs(queued, fsSubmitted))).to.equal('queued');
      expect(deliveryStatus(legs(queued, sent))).to.equal('sent_peppol');
      expect(deliveryStatus(legs(queued, fsSubmitted, fsAcked, sent))).to.equal('sent_peppol');
      expect(deliveryStatus(legs(queued, sent, delivered))).to.equal('delivered');
      expect(deliveryStatus(legs(queued, sent, delivered, fsSubmitted))).to.equal('sent_fs');
      expect(deliveryStatus(legs(queued, sent, delivered, fsSubmitted, fsAcked))).to.equal('fs_acknowledged');
      expect(deliveryStatus(legs(queued, fsSubmitted, fsAcked, sent, delivered))).to.equal('fs_acknowledged');
    });
    it('a failed leg fails the invoice; an FS rejection rejects it', () => {
      expect(deliveryStatus(legs(queued, peppolFailed))).to.equal('failed');
      expect(deliveryStatus(legs(queued, sent, delivered, fsFailed))).to.equal('failed');
      expect(deliveryStatus(legs(queued, sent, delivered, fsSubmitted, fsRejected))).to.equal('rejected');
    });
    it('keeps the detail of each leg', () => {
      const d = legs(queued, sent, delivered, fsSubmitted, fsAcked);
      expect(d.peppol).to.include({ status: 'delivered', message_id: 'm1', delivered_at: at });
      expect(d.fs).to.include({ status: 'acknowledged', submission_id: 's1', tdd_uuid: 't1', mls_response_code: 'AP', reporter_role: 'C2' });
    });
  });

  describe('outcomes are idempotent', () => {
    const history = [addressed, queued, audit];
    const record = (command: Omit<Extract<InvoiceCommand, { type: 'RecordPeppolSent' }>, 'type' | 'invoice_id' | 'at'>): InvoiceCommand => ({
      type: 'RecordPeppolSent', invoice_id: 'i1', at, ...command,
    });
    const sentCommand = record({ peppol_message_id: 'm1', sender_participant_id: content.supplier.peppol_id ?? '', receiver_participant_id: buyerId, document_type_id: 'doc', as4: null });
    const as4 = { message_id: 'm1@POP000001', receipt: '<env:Envelope>…signed eb:Receipt…</env:Envelope>', receiving_ap: 'POP000002' };

    it('records sent_peppol once; a repeat (after a crash) or a stale message decides nothing', () => {
      given(history).when(sentCommand).then([sent]);
      given([...history, sent]).when(sentCommand).then([]);
      given(history).when({ ...sentCommand, peppol_message_id: 'old' } as InvoiceCommand).then([]);
    });
    it('keeps the receiver\'s AS4 receipt on the sent event, as the command brings it (null: sandbox, or recorded without a send in hand)', () => {
      given(history).when({ ...sentCommand, as4 } as InvoiceCommand).then([{ ...sent, data: { ...sent.data, as4 } } as DeliveryEvent]);
      given([...history, delivered]).when(sentCommand).then([sent]);
    });
    it('confirms delivery once, also when the status callback overtakes the sent record', () => {
      const confirm: InvoiceCommand = { type: 'ConfirmPeppolDelivery', invoice_id: 'i1', peppol_message_id: 'm1', at };
      given([...history, sent]).when(confirm).then([delivered]);
      given(history).when(confirm).then([delivered]);
      given([...history, sent, delivered]).when(confirm).then([]);
      given([...history, delivered]).when(sentCommand).then([sent]);
      expect(statusAfter(...history, delivered, sent)).to.equal('delivered');
    });
    it('the receiving Access Point\'s MLS delivers (AP, AB) or rejects (RE, with its reasons) the current message once', () => {
      const mls = (response_code: 'AP' | 'AB' | 'RE', peppol_message_id = 'm1'): InvoiceCommand => ({
        type: 'ApplyMls', invoice_id: 'i1', peppol_message_id, mls_id: 'x1', response_code, received_at: at,
        description: response_code === 'RE' ? 'Rejected due to validation errors' : null,
        issues: response_code === 'RE' ? [{ location: 'NA', description: '[BR-CO-15] totals do not add up', reason: 'BV' }, { location: '/x', description: 'no rule id', reason: 'SV' }] : [],
      });
      const received = (response_code: 'AP' | 'AB' | 'RE'): DeliveryEvent => {
        const { type: _type, ...data } = mls(response_code) as Extract<InvoiceCommand, { type: 'ApplyMls' }>;
        return { type: 'PeppolMlsReceived', data };
      };
      given([...history, sent]).when(mls('AP')).then([received('AP'), delivered]);
      given([...history, sent]).when(mls('AB')).then([received('AB'), delivered]);
      // the MLS may overtake the record of our send
      given(history).when(mls('AP')).then([received('AP'), delivered]);
      given([...history, sent]).when(mls('RE')).then([received('RE'), {
        type: 'PeppolDeliveryFailed',
        data: {
          invoice_id: 'i1', peppol_message_id: 'm1', reason: 'the receiving Access Point rejected the invoice (MLS RE): Rejected due to validation errors',
          findings: [{ rule: 'BR-CO-15', message: '[BR-CO-15] totals do not add up' }, { rule: 'SV', message: 'no rule id' }], attempts: 0, failed_at: at, rejected_by_receiver: true,
        },
      }]);
      // a second MLS, or one for another message, changes nothing
      given([...history, sent, received('AP'), delivered]).when(mls('RE')).then([]);
      given([...history, sent]).when(mls('AP', 'other')).then([]);
      const state = fold(invoiceDecider, [...history, sent, received('RE')]);
      expect(state.status !== 'none' && state.delivery.peppol.mls?.response_code).to.equal('RE');
      // an MLS RE rejects the invoice; a refusal at the transport (no MLS) fails it
      const refused = { type: 'PeppolDeliveryFailed', data: { ...peppolFailed.data, rejected_by_receiver: true } } as DeliveryEvent;
      expect(statusAfter(...history, sent, received('RE'), refused)).to.equal('rejected');
      const rejected = fold(invoiceDecider, [...history, sent, received('RE'), refused]);
      expect(rejected.status !== 'none' && rejected.delivery.peppol.status).to.equal('rejected');
      expect(statusAfter(...history, sent, refused)).to.equal('failed');
    });
    it('corner 5\'s MLS that overtakes the record of the filing records both, once', () => {
      const verdict: InvoiceCommand = {
        type: 'RecordFsVerdict', invoice_id: 'i1', fs_submission_id: stableUuid('fs-c2', 'm1'), verdict: 'acknowledged', tdd_uuid: stableUuid('fs-c2', 'm1'), mls_response_code: 'AP', reasons: null, at,
      };
      const id = stableUuid('fs-c2', 'm1');
      given(history).when(verdict).then([
        { type: 'FsCopySubmitted', data: { invoice_id: 'i1', fs_submission_id: id, tdd_uuid: id, reporter_role: 'C2', submitted_at: at } },
        { type: 'FsCopyAcknowledged', data: { invoice_id: 'i1', fs_submission_id: id, tdd_uuid: id, mls_response_code: 'AP', acknowledged_at: at } },
      ]);
      // the filing's own record, when it comes after, decides nothing; an MLS naming another message neither
      const both = invoiceDecider.decide(verdict, fold(invoiceDecider, history));
      given([...history, ...both]).when({ type: 'RecordFsSubmitted', invoice_id: 'i1', fs_submission_id: id, tdd_uuid: id, reporter_role: 'C2', at }).then([]);
      given(history).when({ ...verdict, fs_submission_id: 'other' } as InvoiceCommand).then([]);
    });
    it('numbers transport failures per leg, and records none once the leg has moved on', () => {
      const attempt = (leg: 'peppol' | 'fs'): InvoiceCommand => ({
        type: 'RecordDeliveryAttemptFailed', invoice_id: 'i1', leg, reason: 'down', failure: { kind: 'transport' }, policy, at,
      });
      const first = invoiceDecider.decide(attempt('peppol'), fold(invoiceDecider, history));
      expect(first[0]?.data).to.include({ leg: 'peppol', attempt: 1 });
      const second = invoiceDecider.decide(attempt('peppol'), fold(invoiceDecider, [...history, ...first]));
      expect(second[0]?.data).to.include({ attempt: 2 });
      given([...history, sent]).when(attempt('peppol')).then([]);
      given([...history, fsSubmitted]).when(attempt('fs')).then([]);
    });
    it('records the FS submission and one verdict for the current submission only', () => {
      const verdict = (fs_submission_id: string): InvoiceCommand => ({
        type: 'RecordFsVerdict', invoice_id: 'i1', fs_submission_id, verdict: 'acknowledged', tdd_uuid: 't1', mls_response_code: 'AP', reasons: null, at,
      });
      given(history).when({ type: 'RecordFsSubmitted', invoice_id: 'i1', fs_submission_id: 's1', tdd_uuid: 't1', reporter_role: 'C2', at }).then([fsSubmitted]);
      given([...history, fsSubmitted]).when({ type: 'RecordFsSubmitted', invoice_id: 'i1', fs_submission_id: 's2', tdd_uuid: 't2', reporter_role: 'C2', at }).then([]);
      given([...history, fsSubmitted]).when(verdict('s1')).then([fsAcked]);
      given([...history, fsSubmitted, fsAcked]).when(verdict('s1')).then([]);
      given([...history, fsSubmitted]).when(verdict('other')).then([]);
    });
    it('gives up a leg at most once', () => {
      const fail: InvoiceCommand = { type: 'RecordPeppolFailed', invoice_id: 'i1', peppol_message_id: 'm1', reason: 'unknown participant', findings: [], at };
      given(history).when(fail).then([peppolFailed]);
      given([...history, peppolFailed]).when(fail).then([]);
      given([...history, sent, delivered]).when(fail).then([]);
    });
  });

  describe('mark-sent (finished by hand)', () => {
    const mark: InvoiceCommand = { type: 'MarkSent', invoice_id: 'i1', scope, marked_by: 'k1', delivered_at: at, note: 'e-mailed as PDF', at };
    const marked: DeliveryEvent = { type: 'InvoiceMarkedSent', data: { invoice_id: 'i1', marked_by: 'k1', delivered_at: at, note: 'e-mailed as PDF', at } };
    it('makes a draft delivered without Peppol; marking again changes nothing', () => {
      given([created]).when(mark).then([marked]);
      expect(statusAfter(created, marked)).to.equal('delivered');
      given([created, marked]).when(mark).then([]);
    });
    it('finishes an invoice whose Peppol delivery failed', () => {
      given([addressed, queued, peppolFailed]).when(mark).then([marked]);
      expect(statusAfter(addressed, queued, peppolFailed, marked)).to.equal('delivered');
    });
    it('finishes an invoice the receiving Access Point rejected (MLS RE)', () => {
      given([addressed, queued, sent, mlsRejected, rejectedByMls]).when(mark).then([marked]);
      expect(statusAfter(addressed, queued, sent, mlsRejected, rejectedByMls, marked)).to.equal('delivered');
    });
    it('refuses an invoice on its way (invalid_status)', () => given([addressed, queued]).when(mark).thenThrows('invalid_status'));
    it('another company’s invoice is not found, even one it could mark', () =>
      given([created]).when({ ...mark, scope: otherCompany }).thenThrows(NotFound, invoiceNotFound));
  });

  describe('edits after a failed send', () => {
    const update = (): InvoiceCommand => ({ type: 'UpdateInvoice', invoice_id: 'i1', scope, updated_by: 'k1', content: addressedContent, code_lists: lists, at });
    it('a failed invoice that reached nobody can be corrected, and is a draft again', () => {
      const events = invoiceDecider.decide(update(), fold(invoiceDecider, [addressed, queued, peppolFailed, fsFailed]));
      expect(statusAfter(addressed, queued, peppolFailed, fsFailed, ...events)).to.equal('draft');
    });
    it('so can one the receiving Access Point rejected (MLS RE) while FS holds no copy', () => {
      const events = invoiceDecider.decide(update(), fold(invoiceDecider, [addressed, queued, sent, mlsRejected, rejectedByMls]));
      expect(statusAfter(addressed, queued, sent, mlsRejected, rejectedByMls, ...events)).to.equal('draft');
    });
    it('one whose tax data FS already holds cannot', () =>
      given([addressed, queued, fsSubmitted, fsAcked, peppolFailed]).when(update()).thenThrows('invalid_status'));
  });

  describe('inbound copies', () => {
    const received: InvoiceReceived = {
      type: 'InvoiceReceived',
      data: {
        invoice_id: 'r1', organisation_id: 'o2', company_id: 'c2', workspace_id: 'w2', source: 'peppol', peppol_message_id: 'm1',
        sender_participant_id: content.supplier.peppol_id ?? '', receiver_participant_id: buyerId, document_type_id: 'doc', provider_document_id: null,
        invoice_number: content.invoice_number, supplier_vat_id: content.supplier.vat_id,
        content, totals: computeTotals(content), ubl: '<Invoice/>', received_at: at,
      },
    };
    const receive: InvoiceCommand = { type: 'ReceiveInvoice', ...received.data };
    it('records an inbound invoice once per Peppol message', () => {
      given([]).when(receive).then([received]);
      given([received]).when(receive).then([]);
    });
    it('is delivered and read-only: it cannot be changed or sent, and validating it changes nothing', () => {
      expect(statusAfter(received)).to.equal('delivered');
      const theirs = { organisationId: 'o2', companyId: 'c2' };
      given([received]).when({ type: 'UpdateInvoice', invoice_id: 'r1', scope: theirs, updated_by: 'k1', content, code_lists: lists, at }).thenThrows('invalid_status');
      given([received]).when({ ...send, invoice_id: 'r1', scope: theirs } as InvoiceCommand).thenThrows('invalid_status');
      const passed = { business_rules_valid: true, xsd_valid: true, peppol_valid: true, slovak_valid: true };
      given([received]).when({ type: 'RecordValidation', invoice_id: 'r1', scope: theirs, validated_by: 'k1', outcome: passed, at }).thenNothingHappened();
    });
    it('files its tax data as the receiver (C3)', () => {
      const state = fold(invoiceDecider, [received]);
      expect(state.status !== 'none' && state.delivery.fs).to.include({ status: 'pending', reporter_role: 'C3' });
    });
  });
});
