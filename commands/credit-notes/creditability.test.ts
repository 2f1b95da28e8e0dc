import { expect } from 'chai';
import type { InvoiceStatus } from '../../events/invoices.ts';
import { NO_DELIVERY } from '../invoices/delivery.ts';
import type { KnownInvoice } from '../invoices/decider.ts';
import { content } from '../invoices/test-fixtures.ts';
import { DomainError } from '../shared/domain-error.ts';
import { allowanceOf } from './allowance.ts';
import { invoiceRefusal } from './creditability.ts';
import { creditNoteRows } from './rows.ts';
import { fullReversal, issued, line, partial } from './test-fixtures.ts';

describe('which invoices may be credited (not_creditable)', () => {
  const lines = [line(1)];
  const refusal = (fields: Partial<KnownInvoice>) => invoiceRefusal(issued(lines, fields));

  it('a received invoice is not creditable (its supplier credits it)', () =>
    expect(refusal({ source: 'peppol' })).to.match(/received invoice/));

  it('a proforma is not creditable', () =>
    expect(refusal({ content: { ...content, lines, invoice_type: '325' } })).to.match(/proforma/));

  it('a credit note is not credited again', () =>
    expect(refusal({ content: { ...content, lines, invoice_type: '381' } })).to.match(/credit note/));

  for (const status of ['draft', 'validated', 'approved', 'pending_approval'] as InvoiceStatus[]) {
    it(`an invoice not issued yet (${status}) is corrected, not credited`, () => expect(refusal({ status })).to.match(/not issued yet/));
  }

  for (const status of ['voided', 'cancelled'] as InvoiceStatus[]) {
    it(`a ${status} invoice is not creditable`, () => expect(refusal({ status })).to.equal(`the invoice is ${status}`));
  }

  for (const status of ['queued', 'sent_peppol', 'delivered', 'sent_fs', 'fs_acknowledged', 'rejected'] as InvoiceStatus[]) {
    it(`an issued invoice (${status}) is creditable`, () => expect(refusal({ status })).to.equal(null));
  }

  it('a failed invoice that reached nobody is corrected and sent again, not credited', () => {
    const failed = { ...NO_DELIVERY, peppol: { ...NO_DELIVERY.peppol, status: 'failed' as const }, fs: { ...NO_DELIVERY.fs, status: 'failed' as const } };
    expect(refusal({ status: 'failed', delivery: failed })).to.match(/never reached anyone/);
  });

  it('an invoice the receiving Access Point rejected (MLS RE) while FS holds no copy is corrected and sent again, not credited', () => {
    const rejected = { ...NO_DELIVERY, peppol: { ...NO_DELIVERY.peppol, status: 'rejected' as const }, fs: { ...NO_DELIVERY.fs, status: 'pending' as const } };
    expect(refusal({ status: 'rejected', delivery: rejected })).to.match(/receiving Access Point rejected/);
  });

  it('a failed invoice the buyer has (the FS copy failed) is creditable', () => {
    const fsFailed = { ...NO_DELIVERY, peppol: { ...NO_DELIVERY.peppol, status: 'delivered' as const }, fs: { ...NO_DELIVERY.fs, status: 'failed' as const } };
    expect(refusal({ status: 'failed', delivery: fsFailed })).to.equal(null);
  });

  it('every reason is refused with 409 not_creditable and the refusal as message', () => {
    const allowance = allowanceOf(issued(lines, { source: 'peppol' }), []);
    expect(allowance).to.deep.include({ creditable: false, refusal: 'a received invoice is credited by its supplier' });
    for (const request of [fullReversal, partial({ vat_rate: '23', gross: '1.00' })]) {
      const error = catchError(() => creditNoteRows(request, allowance));
      expect(error).to.be.instanceOf(DomainError).and.deep.include({ code: 'not_creditable', message: 'a received invoice is credited by its supplier' });
    }
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.fail('expected a refusal');
}
