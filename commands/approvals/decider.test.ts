import { expect } from 'chai';
import type { ApprovalEvent } from '../../events/approvals.ts';
import type { DeliveryEvent, InvoiceReceived } from '../../events/delivery.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { invoiceDecider, type InvoiceCommand } from '../invoices/decider.ts';
import type { InvoiceStreamEvent } from '../invoices/state.ts';
import { at, content, created, lists, otherCompany, otherOrganisation, scope } from '../invoices/test-fixtures.ts';
import { NotFound } from '../shared/access.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { computeTotals } from '../invoices/totals.ts';
import { evolveApproval } from './approval.ts';
import { approvalDecider, type ApprovalCommand, type Requester, type Reviewer } from './decider.ts';

const given = specFor(approvalDecider);
const later = '2026-11-23T09:00:00.000Z';
const totals = computeTotals(content);

/** The accountant asked for a1 in person (most tests): the requester the service attributes to it. */
const byAccountant: Requester = { kind: 'user', id: 'accountant-1', person: 'accountant-1' };
const user = (id: string): Reviewer => ({ kind: 'user', id });

const request = (by = 'accountant-1', approval_id = 'a1'): ApprovalCommand => ({ type: 'RequestApproval', invoice_id: 'i1', approval_id, scope, requested_by: by, at });
const approve = (by: string | Reviewer = 'approver-1', where = scope, requester: Requester | null = byAccountant): ApprovalCommand => ({
  type: 'ApproveInvoice', invoice_id: 'i1', scope: where, reviewer: typeof by === 'string' ? user(by) : by, requester, at: later,
});
const reject = (reason = 'wrong price', by: string | Reviewer = 'approver-1', requester: Requester | null = byAccountant): ApprovalCommand => ({
  type: 'RejectInvoice', invoice_id: 'i1', scope, reviewer: typeof by === 'string' ? user(by) : by, requester, reason, at: later,
});

const requested = (approval_id = 'a1', by = 'accountant-1'): ApprovalEvent => ({
  type: 'InvoiceApprovalRequested', data: { invoice_id: 'i1', approval_id, requested_by: by, requested_at: at },
});
const approved: ApprovalEvent = { type: 'InvoiceApproved', data: { invoice_id: 'i1', approval_id: 'a1', reviewed_by: 'approver-1', reviewed_at: later } };
const rejected: ApprovalEvent = { type: 'InvoiceApprovalRejected', data: { invoice_id: 'i1', approval_id: 'a1', reviewed_by: 'approver-1', reason: 'wrong price', reviewed_at: later } };
const validated: InvoiceEvent = { type: 'InvoiceValidated', data: { invoice_id: 'i1', validated_by: 'k1', validated_at: at } };
const queued: DeliveryEvent = { type: 'InvoiceQueued', data: { invoice_id: 'i1', queued_by: 'k1', peppol_message_id: 'm1', receiver_participant_id: 'r', queued_at: at } };
const updated: InvoiceEvent = { type: 'InvoiceUpdated', data: { invoice_id: 'i1', updated_by: 'accountant-1', content, totals: totals, warnings: [], updated_at: later } };

const statusAfter = (...events: InvoiceStreamEvent[]) => fold(invoiceDecider, events).status;
const invoiceNotFound = (e: NotFound) => expect(e.code).to.equal('invoice_not_found');

describe('approvals on the invoice stream', () => {
  describe('request approval', () => {
    it('a draft or a validated invoice asks for approval and waits in pending_approval', () => {
      given([created]).when(request()).then([requested()]);
      given([created, validated]).when(request()).then([requested()]);
      expect(statusAfter(created, requested())).to.equal('pending_approval');
      expect(fold(approvalDecider, [created, requested()]).approval).to.deep.equal({
        id: 'a1', status: 'pending', requested_by: 'accountant-1', requested_at: at, reviewed_by: null, reviewed_at: null, reason: null, voided: null,
      });
    });

    it('while a request is pending, another is refused with invalid_status', () =>
      given([created, requested()]).when(request('accountant-2', 'a2')).thenThrows('invalid_status', { status: 'pending_approval' }));

    it('an approved invoice, one that left the service, or a received copy cannot ask: invalid_status', () => {
      given([created, requested(), approved]).when(request('accountant-1', 'a2')).thenThrows('invalid_status', { status: 'approved' });
      given([created, queued]).when(request()).thenThrows('invalid_status', { status: 'queued' });
      const received: InvoiceReceived = {
        type: 'InvoiceReceived',
        data: {
          invoice_id: 'i1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1', source: 'peppol', peppol_message_id: 'm9', sender_participant_id: 's',
          receiver_participant_id: 'r', document_type_id: 'd', provider_document_id: null, invoice_number: '1', supplier_vat_id: 'SK2020273893', content,
          totals: totals, ubl: '<Invoice/>', received_at: at,
        },
      };
      given([received]).when(request()).thenThrows('invalid_status');
    });

    it('an unknown invoice, or another company\'s or organisation\'s, is not found', () => {
      given([]).when(request()).thenThrows(NotFound, invoiceNotFound);
      given([created]).when({ ...request(), scope: otherCompany }).thenThrows(NotFound, invoiceNotFound);
      given([created]).when({ ...request(), scope: otherOrganisation }).thenThrows(NotFound, invoiceNotFound);
    });
  });

  describe('approve', () => {
    it('another reviewer approves a pending request: the invoice is approved, and sendable', () => {
      given([created, requested()]).when(approve()).then([approved]);
      expect(statusAfter(created, requested(), approved)).to.equal('approved');
      expect(fold(approvalDecider, [created, requested(), approved]).approval).to.include({ status: 'approved', reviewed_by: 'approver-1', reviewed_at: later, reason: null });
      const addressed = { ...created, data: { ...created.data, content: { ...content, buyer: { ...content.buyer, peppol_id: '9950:sk2020000004svctest' } } } } as InvoiceEvent;
      const send: InvoiceCommand = { type: 'SendInvoice', invoice_id: 'i1', scope, queued_by: 'approver-1', peppol_message_id: 'm1', code_lists: lists, at: later };
      expect(invoiceDecider.decide(send, fold(invoiceDecider, [addressed, requested(), approved])).map((e) => e.type)).to.deep.equal(['InvoiceQueued', 'InvoiceAuditEntryRecorded']);
    });

    it('only a pending request is approved: invalid_status otherwise', () => {
      given([created]).when(approve()).thenThrows('invalid_status', { status: 'draft' });
      given([created, requested(), approved]).when(approve()).thenThrows('invalid_status', { status: 'approved' });
      given([created, requested(), rejected]).when(approve()).thenThrows('invalid_status', { status: 'draft' });
    });

    it('another company\'s invoice is not found, before anything else is said', () =>
      given([created, requested()]).when(approve('accountant-1', otherCompany)).thenThrows(NotFound, invoiceNotFound));
  });

  describe('four eyes means two people', () => {
    const key1: Requester = { kind: 'api_key', id: 'key-1', person: 'admin-1' };
    const byKey = [created, requested('a1', 'key-1')];

    it('a user may not review their own request: 403 self_review_not_allowed', () => {
      given([created, requested()]).when(approve('accountant-1')).thenThrows('self_review_not_allowed', { approval_id: 'a1', requested_by: 'accountant-1', requested_by_person: 'accountant-1' });
      given([created, requested()]).when(reject('no', 'accountant-1')).thenThrows('self_review_not_allowed');
    });

    it('a request made by an API key is the person\'s who created the key: that user may not review it, another user may', () => {
      given(byKey).when(approve('admin-1', scope, key1)).thenThrows('self_review_not_allowed', { approval_id: 'a1', requested_by: 'key-1', requested_by_person: 'admin-1' });
      given(byKey).when(reject('no', 'admin-1', key1)).thenThrows('self_review_not_allowed');
      given(byKey).when(approve('approver-1', scope, key1)).then([approved]);
    });

    it('an OAuth client\'s request likewise: not its creator', () =>
      given([created, requested('a1', 'oc_1')]).when(approve('admin-1', scope, { kind: 'oauth_client', id: 'oc_1', person: 'admin-1' })).thenThrows('self_review_not_allowed'));

    it('a key the service issued itself stands for no user: any user other than the requester reviews its request', () =>
      given(byKey).when(approve('approver-1', scope, { ...key1, person: 'demo-bootstrap' })).then([approved]));

    it('an API key or an OAuth client never reviews, whoever asked: 403 reviewer_must_be_user, before the status is looked at', () => {
      const key2: Reviewer = { kind: 'api_key', id: 'key-2' };
      given(byKey).when(approve(key2, scope, null)).thenThrows('reviewer_must_be_user', { credential: 'api_key' });
      given([created, requested()]).when(approve({ kind: 'api_key', id: 'key-1' }, scope, null)).thenThrows('reviewer_must_be_user');
      given([created, requested()]).when(reject('no', { kind: 'oauth_client', id: 'oc_1' }, null)).thenThrows('reviewer_must_be_user', { credential: 'oauth_client' });
      given([created]).when(approve(key2, scope, null)).thenThrows('reviewer_must_be_user');
    });

    it('an attribution of another request than the pending one is a bug, not a refusal', () => {
      expect(() => approvalDecider.decide(approve('approver-1', scope, key1), fold(approvalDecider, [created, requested()]))).to.throw(Error, /is not who asked/);
      expect(() => approvalDecider.decide(approve('approver-1', scope, null), fold(approvalDecider, [created, requested()]))).to.throw(Error, /is not who asked/);
    });

  });

  describe('reject', () => {
    it('another reviewer rejects a pending request with a reason: the invoice is a draft again (never `rejected`)', () => {
      given([created, requested()]).when(reject()).then([rejected]);
      expect(statusAfter(created, validated, requested(), rejected)).to.equal('draft');
      expect(fold(approvalDecider, [created, requested(), rejected]).approval).to.include({ status: 'rejected', reason: 'wrong price' });
    });

    it('the reason is trimmed; an empty or blank one, or one over 1000 characters, is a 422 on reason', () => {
      given([created, requested()]).when(reject('  wrong price \n')).then([rejected]);
      for (const reason of ['', '   ', 'x'.repeat(1001)]) {
        given([created, requested()]).when(reject(reason)).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc)).to.deep.equal([['body', 'reason']]));
      }
    });

    it('only a pending request is rejected: invalid_status otherwise', () =>
      given([created, validated]).when(reject()).thenThrows('invalid_status', { status: 'validated' }));
  });

  describe('after a review', () => {
    it('a rejected invoice is editable and may ask again; the new request replaces the record', () => {
      const state = fold(approvalDecider, [created, requested(), rejected, updated, requested('a2')]);
      expect(state.invoice.status).to.equal('pending_approval');
      expect(state.approval).to.include({ id: 'a2', status: 'pending', reviewed_by: null, reason: null });
    });

    it('an approved invoice that is edited is a draft again, its approval voided, and may ask again (void.test.ts)', () => {
      const edit: InvoiceCommand = { type: 'UpdateInvoice', invoice_id: 'i1', scope, updated_by: 'accountant-1', content, code_lists: lists, at: later };
      const events = invoiceDecider.decide(edit, fold(invoiceDecider, [created, requested(), approved]));
      expect(events.map((e) => e.type)).to.deep.equal(['InvoiceUpdated', 'InvoiceApprovalVoided']);
      expect(statusAfter(created, requested(), approved, ...events)).to.equal('draft');
      given([created, requested(), approved, ...events]).when(request('accountant-1', 'a2')).then([requested('a2')]);
    });

    it('a pending invoice is neither edited nor sent (invalid_status)', () => {
      const edit: InvoiceCommand = { type: 'UpdateInvoice', invoice_id: 'i1', scope, updated_by: 'accountant-1', content, code_lists: lists, at: later };
      const send: InvoiceCommand = { type: 'SendInvoice', invoice_id: 'i1', scope, queued_by: 'k1', peppol_message_id: 'm1', code_lists: lists, at: later };
      for (const command of [edit, send]) {
        expect(() => invoiceDecider.decide(command, fold(invoiceDecider, [created, requested()]))).to.throw().with.property('code', 'invalid_status');
      }
    });

    it('a review of an older request does not touch the current record', () => {
      const current = evolveApproval(evolveApproval(null, requested('a1')), requested('a2'));
      expect(evolveApproval(current, approved)).to.equal(current);
    });
  });
});
