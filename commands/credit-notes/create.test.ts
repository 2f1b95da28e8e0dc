import { expect } from 'chai';
import { lists as code_lists } from '../invoices/test-fixtures.ts';
import { evolveInvoice, type InvoiceState } from '../invoices/state.ts';
import { InvoiceRuleViolation } from '../invoices/rule-violation.ts';
import { decideCreditNote, type CreateCreditNote } from './create.ts';
import { creditNoteOutcome } from './outcome.ts';
import { creditNoteRail } from './rail.ts';
import { fullReversal, issued, line, partial } from './test-fixtures.ts';

const AT = '2026-11-24T10:00:00.000Z';
const lines = [line(1, { quantity: '2', unit_price: '50.00' }), line(2, { unit_price: '40.00', vat_rate: '5' })];
const plain = issued(lines);
// delivered over Peppol: both parties have an electronic address
const invoice = issued(lines, { content: { ...plain.content, buyer: { ...plain.content.buyer, peppol_id: '9950:sk2020000004svctest' } } });

describe('creating a credit note over two streams', () => {
  let command: (fields?: Partial<CreateCreditNote>) => CreateCreditNote;
  before(() => {
    command = (fields = {}) => ({
      scope: { organisationId: 'o1', companyId: 'c1' }, credit_note_id: 'cn-1', credit_note_number: 'DOB-2026-1', issue_date: '2026-11-24',
      request: partial({ vat_rate: '23', gross: '61.50' }), rail: 'peppol', created_by: 'key-1', peppol_message_id: 'msg-1', approval_id: 'ap-1', code_lists, at: AT, ...fields,
    });
  });

  it('peppol: the invoice reserves, the credit note starts as a 381 naming it and is queued as a send', () => {
    const decision = decideCreditNote(command(), invoice);
    expect(decision.invoice.map((e) => e.type)).to.deep.equal(['CreditNoteReserved']);
    expect(decision.creditNote.map((e) => e.type)).to.deep.equal(['CreditNoteCreated', 'InvoiceQueued', 'InvoiceAuditEntryRecorded']);
    expect(decision.state).to.deep.include({ status: 'queued', invoice_number: 'DOB-2026-1' });
    expect(decision.state.content.billing_reference).to.deep.equal({ invoice_number: invoice.invoice_number, issue_date: invoice.content.issue_date });
    expect(decision.state.totals.total_gross).to.equal('61.50');
  });

  it('by hand: delivered at once, and issued on the invoice in the same write (a full reversal voids it there)', () => {
    const decision = decideCreditNote(command({ rail: 'by_hand', request: fullReversal }), invoice);
    expect(decision.invoice.map((e) => e.type)).to.deep.equal(['CreditNoteReserved', 'CreditNoteIssued', 'InvoiceVoided']);
    expect(decision.state.status).to.equal('delivered');
  });

  it('pending approval: not counted, and put up for review by the one who made it', () => {
    const decision = decideCreditNote(command({ rail: 'pending_approval' }), invoice);
    const reserved = decision.invoice[0]!;
    expect(reserved.type === 'CreditNoteReserved' && reserved.data.counted).to.equal(false);
    expect(decision.creditNote.map((e) => e.type)).to.deep.equal(['CreditNoteCreated', 'InvoiceApprovalRequested']);
    expect(decision.state.status).to.equal('pending_approval');
  });

  it('a credit note the rules refuse is never made (422 flavour 2)', () => {
    const noBuyerAddress = issued(invoice.content.lines, { content: { ...invoice.content, buyer: { ...invoice.content.buyer, peppol_id: null } } });
    expect(() => decideCreditNote(command(), noBuyerAddress)).to.throw(InvoiceRuleViolation);
  });
});

describe('the rail a credit note takes (rule 7)', () => {
  it('an accountant waits for approval where someone reviews; otherwise Peppol, or by hand without an address or after a mark-sent', () => {
    expect(creditNoteRail(invoice, { role: 'accountant', organisationHasReviewer: true })).to.equal('pending_approval');
    expect(creditNoteRail(invoice, { role: 'accountant', organisationHasReviewer: false })).to.equal('peppol');
    expect(creditNoteRail(invoice, { role: 'admin', organisationHasReviewer: true })).to.equal('peppol');
    const manual = issued(invoice.content.lines, { delivery: { ...invoice.delivery, peppol: { ...invoice.delivery.peppol, status: 'manual' } } });
    expect(creditNoteRail(manual, { role: 'admin', organisationHasReviewer: true })).to.equal('by_hand');
    const noAddress = issued(invoice.content.lines, { content: { ...invoice.content, buyer: { ...invoice.content.buyer, peppol_id: null } } });
    expect(creditNoteRail(noAddress, { role: 'approver', organisationHasReviewer: true })).to.equal('by_hand');
  });
});

describe('what a credit note\'s delivery means for its invoice', () => {
  let creditNote: (peppol: string, fs?: string) => Parameters<typeof creditNoteOutcome>[0];
  before(() => {
    const made = decideCreditNote({
      scope: { organisationId: 'o1', companyId: 'c1' }, credit_note_id: 'cn-1', credit_note_number: 'DOB-2026-1', issue_date: '2026-11-24',
      request: partial({ vat_rate: '23', gross: '1.23' }), rail: 'peppol', created_by: 'k', peppol_message_id: 'm', approval_id: 'a', code_lists, at: AT,
    }, invoice).state;
    creditNote = (peppol, fs = 'pending') => ({ ...made, delivery: { peppol: { ...made.delivery.peppol, status: peppol }, fs: { ...made.delivery.fs, status: fs } } } as typeof made);
  });

  it('issued once the buyer has it; released when Peppol failed, or FS rejected it before; nothing while queued', () => {
    expect(creditNoteOutcome(creditNote('sent'), AT)?.type).to.equal('RecordCreditNoteIssued');
    expect(creditNoteOutcome(creditNote('manual'), AT)?.type).to.equal('RecordCreditNoteIssued');
    expect(creditNoteOutcome(creditNote('delivered', 'rejected'), AT)?.type).to.equal('RecordCreditNoteIssued');
    expect(creditNoteOutcome(creditNote('failed'), AT)).to.deep.include({ type: 'ReleaseCreditNote', why: 'failed' });
    expect(creditNoteOutcome(creditNote('rejected'), AT)).to.deep.include({ type: 'ReleaseCreditNote', why: 'rejected' }); // the buyer's Access Point refused it (MLS RE)
    expect(creditNoteOutcome(creditNote('queued', 'rejected'), AT)).to.deep.include({ type: 'ReleaseCreditNote', why: 'rejected' });
    expect(creditNoteOutcome(creditNote('queued'), AT)).to.equal(null);
    const plainInvoice: InvoiceState = evolveInvoice(invoice, { type: 'InvoiceValidated', data: { invoice_id: 'inv-1', validated_by: 'k', validated_at: AT } });
    expect(creditNoteOutcome(plainInvoice as Parameters<typeof creditNoteOutcome>[0], AT)).to.equal(null);
  });
});
