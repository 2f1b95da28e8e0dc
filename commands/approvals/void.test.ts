import { expect } from 'chai';
import type { ApprovalEvent, InvoiceApprovalVoided } from '../../events/approvals.ts';
import type { DeliveryEvent } from '../../events/delivery.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { invoiceDecider, type InvoiceCommand } from '../invoices/decider.ts';
import type { InvoiceStreamEvent, KnownInvoice } from '../invoices/state.ts';
import { at, content, created, lists, scope } from '../invoices/test-fixtures.ts';
import { computeTotals } from '../invoices/totals.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { approvalDecider } from './decider.ts';
import { approvalVoidedBy } from './void.ts';

const given = specFor(invoiceDecider);
const later = '2026-11-23T09:00:00.000Z';
const after = '2026-11-23T10:00:00.000Z';

/** An invoice both parties' Peppol IDs are known for, so only approval decides whether it is sent. */
const addressed = { ...content, buyer: { ...content.buyer, peppol_id: '9950:sk2020000004svctest' } };
const createdAddressed = { ...created, data: { ...created.data, content: addressed, totals: computeTotals(addressed) } } as InvoiceEvent;
/** The amount ×1,000: the finding's PUT. */
const inflated = { ...addressed, lines: addressed.lines.map((l) => ({ ...l, quantity: '2000' })) };

const requested = (approval_id = 'a1'): ApprovalEvent => ({ type: 'InvoiceApprovalRequested', data: { invoice_id: 'i1', approval_id, requested_by: 'accountant-1', requested_at: at } });
const approved = (approval_id = 'a1'): ApprovalEvent => ({ type: 'InvoiceApproved', data: { invoice_id: 'i1', approval_id, reviewed_by: 'approver-1', reviewed_at: at } });
const rejected = (approval_id = 'a1'): ApprovalEvent => ({ type: 'InvoiceApprovalRejected', data: { invoice_id: 'i1', approval_id, reviewed_by: 'approver-1', reason: 'no', reviewed_at: at } });
const validated: InvoiceEvent = { type: 'InvoiceValidated', data: { invoice_id: 'i1', validated_by: 'accountant-1', validated_at: after } };

const edit = (to = inflated, by = 'accountant-1'): InvoiceCommand => ({ type: 'UpdateInvoice', invoice_id: 'i1', scope, updated_by: by, content: to, code_lists: lists, at: later });
const send: InvoiceCommand = { type: 'SendInvoice', invoice_id: 'i1', scope, queued_by: 'approver-1', peppol_message_id: 'm2', code_lists: lists, at: after };
const markSent: InvoiceCommand = { type: 'MarkSent', invoice_id: 'i1', scope, marked_by: 'approver-1', delivered_at: after, note: null, at: after };

/** The events a decision on the history appends, and the history after them. */
function decided(history: InvoiceStreamEvent[], command: InvoiceCommand): { events: InvoiceStreamEvent[]; history: InvoiceStreamEvent[] } {
  const events = invoiceDecider.decide(command, fold(invoiceDecider, history));
  return { events, history: [...history, ...events] };
}

const approvedHistory: InvoiceStreamEvent[] = [createdAddressed, requested(), approved()];
const voidedHistory = decided(approvedHistory, edit()).history;

describe('a change after approval voids it', () => {
  it('a PUT of an approved invoice voids the approval in the same decision: the fields it changed, the totals approved and now, by whom, when', () => {
    const { events } = decided(approvedHistory, edit());
    expect(events.map((e) => e.type)).to.deep.equal(['InvoiceUpdated', 'InvoiceApprovalVoided']);
    expect(events[1]).to.deep.equal({
      type: 'InvoiceApprovalVoided',
      data: {
        invoice_id: 'i1', approval_id: 'a1', change: 'invoice_updated', changed_fields: ['lines'], approved_total_gross: '123.00', total_gross: '123000.00',
        voided_by: 'accountant-1', voided_at: later,
      },
    } satisfies InvoiceApprovalVoided);
  });

  it('the approval record shows it voided and why; the invoice is a draft', () => {
    const state = fold(approvalDecider, voidedHistory);
    expect(state.invoice.status).to.equal('draft');
    expect(state.approval).to.deep.include({ id: 'a1', status: 'voided', reviewed_by: 'approver-1' });
    expect(state.approval?.voided).to.deep.equal({
      change: 'invoice_updated', changed_fields: ['lines'], approved_total_gross: '123.00', total_gross: '123000.00', by: 'accountant-1', at: later,
    });
  });

  it('the same content put again voids it all the same (a new version of what was approved), naming no field', () => {
    const { events } = decided(approvedHistory, edit(addressed));
    expect(events[1]).to.deep.include({ type: 'InvoiceApprovalVoided' });
    expect((events[1] as InvoiceApprovalVoided).data.changed_fields).to.deep.equal([]);
  });

  it('a change of buyer and note names both', () => {
    const { events } = decided(approvedHistory, edit({ ...addressed, note: 'nová', buyer: { ...addressed.buyer, name: 'Iný odberateľ a.s.' } }));
    expect((events[1] as InvoiceApprovalVoided).data.changed_fields).to.deep.equal(['buyer', 'note']);
  });

  it('an approved invoice whose Peppol delivery failed, corrected by a PUT, has its approval voided too', () => {
    const queued: DeliveryEvent = { type: 'InvoiceQueued', data: { invoice_id: 'i1', queued_by: 'approver-1', peppol_message_id: 'm1', receiver_participant_id: 'r', queued_at: at } };
    const failed: DeliveryEvent = { type: 'PeppolDeliveryFailed', data: { invoice_id: 'i1', peppol_message_id: 'm1', reason: 'unknown participant', findings: [], attempts: 0, failed_at: at } };
    const { events } = decided([...approvedHistory, queued, failed], edit());
    expect(events.map((e) => e.type)).to.deep.equal(['InvoiceUpdated', 'InvoiceApprovalVoided']);
  });

  it('nothing to void: a draft never asked, a rejected request, an approval voided already', () => {
    for (const history of [[createdAddressed], [createdAddressed, requested(), rejected()], voidedHistory]) {
      expect(decided(history, edit()).events.map((e) => e.type)).to.deep.equal(['InvoiceUpdated']);
    }
  });

  it('a pending request is voided by a change as well (no command changes a pending document today: PUT waits for the review)', () => {
    const pending = fold(invoiceDecider, [createdAddressed, requested()]) as KnownInvoice;
    expect(approvalVoidedBy(pending, { change: 'invoice_updated', content: inflated, totals: computeTotals(inflated), by: 'accountant-1', at: later })).to.have.length(1);
    given([createdAddressed, requested()]).when(edit()).thenThrows('invalid_status', { status: 'pending_approval' });
  });
});

describe('a document whose approval was voided is sent only once approved again', () => {
  it('send and mark-sent are refused with 409 invalid_status, naming the voided approval', () => {
    given(voidedHistory).when(send).thenThrows('invalid_status', { status: 'draft', approval_id: 'a1', approval_status: 'voided' });
    given(voidedHistory).when(markSent).thenThrows('invalid_status', { status: 'draft', approval_id: 'a1', approval_status: 'voided' });
  });

  it('validating it, or a new request that is rejected, does not make it sendable', () => {
    given([...voidedHistory, validated]).when(send).thenThrows('invalid_status', { status: 'validated', approval_status: 'voided' });
    given([...voidedHistory, requested('a2'), rejected('a2')]).when(send).thenThrows('invalid_status', { approval_id: 'a2', approval_status: 'rejected' });
  });

  it('a new request, approved by another person, makes it sendable again', () => {
    const again = [...voidedHistory, requested('a2'), approved('a2')];
    expect(invoiceDecider.decide(send, fold(invoiceDecider, again)).map((e) => e.type)).to.deep.equal(['InvoiceQueued', 'InvoiceAuditEntryRecorded']);
    expect(invoiceDecider.decide(markSent, fold(invoiceDecider, again)).map((e) => e.type)).to.deep.equal(['InvoiceMarkedSent']);
  });

  it('an invoice approval never touched is sent as before: approval is not required to send a draft', () =>
    expect(invoiceDecider.decide(send, fold(invoiceDecider, [createdAddressed])).map((e) => e.type)).to.deep.equal(['InvoiceQueued', 'InvoiceAuditEntryRecorded']));
});
