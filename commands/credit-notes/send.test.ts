import { expect } from 'chai';
import { lists as code_lists } from '../invoices/test-fixtures.ts';
import { evolveInvoice, type InvoiceState, type KnownInvoice } from '../invoices/state.ts';
import { DomainError } from '../shared/domain-error.ts';
import { decideCreditNote } from './create.ts';
import { creditNoteDecider } from './decider.ts';
import { decideWaitingCreditNoteSend, waitsToCount } from './send.ts';
import { fullReversal, issued, line, partial } from './test-fixtures.ts';

const AT = '2026-11-24T10:00:00.000Z';
const LATER = '2026-11-26T10:00:00.000Z';
const scope = { organisationId: 'o1', companyId: 'c1' };
const invoice = issued([line(1, { quantity: '2', unit_price: '50.00' }), line(2, { unit_price: '40.00', vat_rate: '5' })]);

function made(state: InvoiceState, id: string, request: Parameters<typeof decideCreditNote>[0]['request'], rail: 'by_hand' | 'void_draft') {
  const decision = decideCreditNote({
    scope, credit_note_id: id, credit_note_number: `DOB-2026-${id}`, issue_date: AT.slice(0, 10), request, rail, created_by: 'k', peppol_message_id: `m-${id}`, approval_id: `a-${id}`, code_lists, at: AT,
  }, state);
  return { invoice: decision.invoice.reduce(evolveInvoice, state), creditNote: decision.state };
}
const markSent = (creditNote: KnownInvoice) => ({
  delivery: { type: 'MarkSent' as const, invoice_id: creditNote.invoice_id, scope, marked_by: 'k', delivered_at: LATER, note: null, at: LATER },
  code_lists, sent_by: 'k', at: LATER,
});

describe('sending a credit note that waited', () => {
  it('a void draft sent after another credit note credits what is left then, made again and dated the day it is sent', () => {
    const drafted = made(invoice, 'v', fullReversal, 'void_draft');
    expect(waitsToCount(drafted.creditNote, drafted.invoice)).to.equal(true);
    const partly = made(drafted.invoice, 'p', partial({ vat_rate: '5', gross: '42.00' }), 'by_hand');
    const sent = decideWaitingCreditNoteSend(markSent(drafted.creditNote), drafted.creditNote, partly.invoice);
    expect(sent.invoice.map((e) => e.type)).to.deep.equal(['CreditNoteCounted', 'CreditNoteIssued', 'InvoiceVoided']);
    expect(sent.creditNote.map((e) => e.type)).to.deep.equal(['InvoiceUpdated', 'InvoiceMarkedSent']);
    expect(sent.state).to.deep.include({ status: 'delivered' });
    expect(sent.state.content.issue_date).to.equal('2026-11-26');
    expect(sent.state.content.note).to.equal(drafted.creditNote.content.note);
    expect(sent.state.totals.total_gross).to.equal('123.00');
  });

  it('unchanged rows leave the document as it was', () => {
    const drafted = made(invoice, 'v', fullReversal, 'void_draft');
    const sent = decideWaitingCreditNoteSend(markSent(drafted.creditNote), drafted.creditNote, drafted.invoice);
    expect(sent.creditNote.map((e) => e.type)).to.deep.equal(['InvoiceMarkedSent']);
  });

  it('one that gave its amount back is never sent again, by hand either (409 invalid_status)', () => {
    const drafted = made(invoice, 'v', fullReversal, 'void_draft');
    const discarded = creditNoteDecider.decide({ type: 'ReleaseCreditNote', credit_note_id: 'v', why: 'discarded', at: AT }, drafted.invoice).reduce(evolveInvoice, drafted.invoice);
    expect(() => waitsToCount(drafted.creditNote, discarded)).to.throw(DomainError).with.property('code', 'invalid_status');
  });

  it('is refused when nothing is left any more (409 not_creditable), and writes nothing', () => {
    const drafted = made(invoice, 'v', fullReversal, 'void_draft');
    const gone = made(drafted.invoice, 'f', fullReversal, 'by_hand');
    expect(() => decideWaitingCreditNoteSend(markSent(drafted.creditNote), drafted.creditNote, gone.invoice)).to.throw(DomainError).with.property('code', 'not_creditable');
  });
});
