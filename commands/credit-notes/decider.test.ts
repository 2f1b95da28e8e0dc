import { expect } from 'chai';
import type { CreditNoteEvent } from '../../events/credit-notes.ts';
import { isEditable } from '../invoices/editable.ts';
import { evolveInvoice, type InvoiceState, type KnownInvoice } from '../invoices/state.ts';
import { NotFound } from '../shared/access.ts';
import { DomainError } from '../shared/domain-error.ts';
import { CreditLimitExceeded } from './credit-limit.ts';
import { creditNoteDecider, invoiceAllowance, type CreditNoteCommand } from './decider.ts';
import type { CreditNoteRequest } from './model.ts';
import { fullReversal, issued, line, partial, rowsAfter } from './test-fixtures.ts';

const AT = '2026-11-24T10:00:00.000Z';
const scope = { organisationId: 'o1', companyId: 'c1' };
const invoice = issued([line(1, { quantity: '2', unit_price: '50.00' }), line(2, { unit_price: '40.00', vat_rate: '5' })]);

const reserve = (id: string, request: CreditNoteRequest, counted = true, at = scope): CreditNoteCommand => ({
  type: 'ReserveCreditNote', scope: at, credit_note_id: id, credit_note_number: `DOB-2026-${id}`, request, counted, reserved_by: 'key-1', at: AT,
});

/** The invoice after these commands, each decided on the state the previous ones left. */
function after(state: InvoiceState, ...commands: CreditNoteCommand[]): KnownInvoice {
  const end = commands.reduce((s, c) => creditNoteDecider.decide(c, s).reduce(evolveInvoice, s), state);
  if (end.status === 'none') throw new Error('no invoice');
  return end;
}
const decide = (state: InvoiceState, command: CreditNoteCommand): CreditNoteEvent[] => creditNoteDecider.decide(command, state) as CreditNoteEvent[];
const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.fail('expected a refusal');
};

describe('credit notes on the invoice stream', () => {
  it('reserves the rows a request credits from what is left, counted from now on', () => {
    const request = partial({ vat_rate: '23', gross: '61.50' });
    expect(decide(invoice, reserve('cn1', request))).to.deep.equal([{
      type: 'CreditNoteReserved',
      data: {
        invoice_id: 'inv-1', credit_note_id: 'cn1', credit_note_number: 'DOB-2026-cn1', reason: 'partial_credit', rows: rowsAfter(invoice, [], request),
        counted: true, reserved_by: 'key-1', reserved_at: AT,
      },
    }]);
    expect(invoiceAllowance(after(invoice, reserve('cn1', request))).buckets[0]).to.include({ left_base: '50.00', left_gross: '61.50' });
  });

  it('a repeated reservation of the same credit note decides nothing', () => {
    const state = after(invoice, reserve('cn1', partial({ vat_rate: '23', gross: '10.00' })));
    expect(decide(state, reserve('cn1', partial({ vat_rate: '23', gross: '10.00' })))).to.deep.equal([]);
  });

  it('another company of the organisation does not see the invoice: 404 invoice_not_found', () => {
    const error = refusal(() => decide(invoice, reserve('cn1', fullReversal, true, { organisationId: 'o1', companyId: 'c2' })));
    expect(error).to.be.instanceOf(NotFound).and.to.include({ code: 'invoice_not_found' });
  });

  it('more than is left is refused with credit_limit_exceeded, and nothing is reserved', () => {
    const state = after(invoice, reserve('cn1', partial({ vat_rate: '23', gross: '100.00' })));
    const error = refusal(() => decide(state, reserve('cn2', partial({ vat_rate: '23', gross: '23.01' }))));
    expect(error).to.be.instanceOf(CreditLimitExceeded);
    expect((error as CreditLimitExceeded).details).to.deep.equal([{
      rule: 'vat_rate_cap', field: 'amounts[0].gross', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, left_base: '18.70', left_gross: '23.00',
    }]);
  });

  describe('rule 10: a full_reversal waits for queued credit notes', () => {
    const queued = after(invoice, reserve('cn1', partial({ vat_rate: '5', gross: '10.00' })));

    it('is refused with 409 not_creditable while another credit note is queued', () => {
      const error = refusal(() => decide(queued, reserve('cn2', fullReversal)));
      expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'not_creditable' });
    });

    it('goes ahead once the queued one is issued, and credits what is left', () => {
      const state = after(queued, { type: 'RecordCreditNoteIssued', credit_note_id: 'cn1', at: AT });
      const [reserved] = decide(state, reserve('cn2', fullReversal));
      expect(reserved?.type).to.equal('CreditNoteReserved');
      expect(invoiceAllowance(after(state, reserve('cn2', fullReversal))).left_gross).to.equal('0.00');
    });

    it('goes ahead once the queued one is released, which frees its amount', () => {
      const state = after(queued, { type: 'ReleaseCreditNote', credit_note_id: 'cn1', why: 'failed', at: AT });
      expect(invoiceAllowance(state).left_gross).to.equal(invoiceAllowance(invoice).left_gross);
      expect(decide(state, reserve('cn2', fullReversal))).to.have.length(1);
    });

    it('a waiting credit note (pending approval) neither counts nor blocks', () => {
      const pending = after(invoice, reserve('cn1', partial({ vat_rate: '5', gross: '10.00' }), false));
      expect(invoiceAllowance(pending).left_gross).to.equal(invoiceAllowance(invoice).left_gross);
      expect(decide(pending, reserve('cn2', fullReversal))).to.have.length(1);
    });

    it('partial credit notes never block each other', () => {
      expect(decide(queued, reserve('cn2', partial({ vat_rate: '23', gross: '1.00' })))).to.have.length(1);
    });
  });

  it('an invoice credited while queued, whose delivery then failed before reaching anyone, cannot be edited while that credit note holds its rows', () => {
    const failedLeg = { ...invoice.delivery, peppol: { ...invoice.delivery.peppol, status: 'failed' as const } };
    expect(isEditable({ ...invoice, status: 'failed', delivery: failedLeg }), 'the failed invoice alone is editable').to.equal(true);
    const queued: KnownInvoice = { ...invoice, status: 'queued', delivery: { ...invoice.delivery, peppol: { ...invoice.delivery.peppol, status: 'queued' } } };
    const credited: KnownInvoice = { ...after(queued, reserve('cn1', partial({ vat_rate: '23', gross: '10.00' }))), status: 'failed', delivery: failedLeg };
    expect(isEditable(credited)).to.equal(false);
    expect(isEditable(after(credited, { type: 'ReleaseCreditNote', credit_note_id: 'cn1', why: 'failed', at: AT }))).to.equal(true);
  });

  describe('outcomes', () => {
    it('an issued full_reversal voids the invoice, and the invoice stays voided whatever its legs report later', () => {
      const reversed = after(invoice, reserve('cn1', fullReversal));
      expect(decide(reversed, { type: 'RecordCreditNoteIssued', credit_note_id: 'cn1', at: AT })).to.deep.equal([
        { type: 'CreditNoteIssued', data: { invoice_id: 'inv-1', credit_note_id: 'cn1', issued_at: AT } },
        { type: 'InvoiceVoided', data: { invoice_id: 'inv-1', credit_note_id: 'cn1', voided_at: AT } },
      ]);
      const voided = after(reversed, { type: 'RecordCreditNoteIssued', credit_note_id: 'cn1', at: AT });
      expect(voided.status).to.equal('voided');
      const verdict = { type: 'FsCopyAcknowledged', data: { invoice_id: 'inv-1', fs_submission_id: 's', tdd_uuid: 't', mls_response_code: 'AP', acknowledged_at: AT } } as const;
      expect(evolveInvoice(reversed, verdict).status, 'the same verdict moves an invoice that is not voided').to.not.equal('delivered');
      expect(evolveInvoice(voided, verdict).status).to.equal('voided');
    });

    it('an issued partial credit does not void, and a repeated outcome decides nothing', () => {
      const issuedOnce = after(invoice, reserve('cn1', partial({ vat_rate: '23', gross: '1.00' })), { type: 'RecordCreditNoteIssued', credit_note_id: 'cn1', at: AT });
      expect(issuedOnce.status).to.equal('delivered');
      expect(decide(issuedOnce, { type: 'RecordCreditNoteIssued', credit_note_id: 'cn1', at: AT })).to.deep.equal([]);
      expect(decide(issuedOnce, { type: 'ReleaseCreditNote', credit_note_id: 'cn1', why: 'rejected', at: AT }), 'an issued one keeps its amount').to.deep.equal([]);
    });

    it('an outcome for a credit note the invoice does not know is 404 credit_note_not_found', () => {
      const error = refusal(() => decide(invoice, { type: 'RecordCreditNoteIssued', credit_note_id: 'nope', at: AT }));
      expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'credit_note_not_found' });
    });
  });

  describe('counting a waiting credit note when it is sent', () => {
    it('keeps its rows when they still fit', () => {
      const pending = after(invoice, reserve('cn1', partial({ vat_rate: '23', gross: '61.50' }), false));
      const [counted] = decide(pending, { type: 'CountCreditNote', credit_note_id: 'cn1', at: AT });
      expect(counted).to.deep.equal({ type: 'CreditNoteCounted', data: { invoice_id: 'inv-1', credit_note_id: 'cn1', rows: pending.credit_notes[0]?.rows, counted_at: AT } });
    });

    it('refuses with credit_limit_exceeded when what is left shrank meanwhile', () => {
      const pending = after(invoice, reserve('cn1', partial({ vat_rate: '23', gross: '61.50' }), false), reserve('cn2', partial({ vat_rate: '23', gross: '100.00' })));
      const error = refusal(() => decide(pending, { type: 'CountCreditNote', credit_note_id: 'cn1', at: AT }));
      expect(error).to.be.instanceOf(CreditLimitExceeded);
      expect((error as CreditLimitExceeded).details).to.deep.equal([{ rule: 'vat_rate_cap', field: 'rows[0].gross', left_base: '18.70', left_vat: '4.30', left_gross: '23.00' }]);
    });

    it('a void\'s full reversal takes what is left when it is sent', () => {
      const drafted = after(invoice, reserve('cn1', fullReversal, false), reserve('cn2', partial({ vat_rate: '5', gross: '10.00' })), { type: 'RecordCreditNoteIssued', credit_note_id: 'cn2', at: AT });
      const sent = after(drafted, { type: 'CountCreditNote', credit_note_id: 'cn1', at: AT });
      expect(invoiceAllowance(sent).left_gross).to.equal('0.00');
      expect(decide(sent, { type: 'CountCreditNote', credit_note_id: 'cn1', at: AT }), 'counted once').to.deep.equal([]);
    });
  });
});
