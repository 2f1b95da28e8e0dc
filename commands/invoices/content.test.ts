import { expect } from 'chai';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { toInvoiceContent, type ContentDefaults } from './content.ts';
import type { Party } from './model.ts';

const company: Party = {
  name: 'Dodávateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893', peppol_id: '9950:sk2020273893svctest',
  street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01', country_code: 'SK',
};
const customer: Party = { ...company, name: 'Odberateľ a.s.', vat_id: 'SK2020000004', dic: '2020000004', peppol_id: null };
const defaults: ContentDefaults = { invoice_number: '2026000007', supplier: company, supplier_iban: 'SK3112000000198742637541', buyer: customer, preceding_invoice: null };
const line = { item_name: ' Konzultácia ', quantity: '2', unit_price: '100.00', vat_rate: '23' };

describe('invoice content from a request', () => {
  it('fills supplier, buyer, IBAN, number, variable symbol, buyer reference and line defaults', () => {
    const content = toInvoiceContent({ issue_date: '2026-11-22', lines: [line, line] }, defaults);
    expect(content).to.include({ invoice_number: '2026000007', invoice_type: '380', currency_code: 'EUR', payment_means_code: '30', variable_symbol: '2026000007', buyer_reference: '2026000007', supplier_iban: 'SK3112000000198742637541' });
    expect(content.supplier).to.deep.equal(company);
    expect(content.buyer).to.deep.equal(customer);
    expect(content.lines.map((l) => [l.line_number, l.item_name, l.unit_code, l.vat_category_code])).to.deep.equal([[1, 'Konzultácia', 'C62', 'S'], [2, 'Konzultácia', 'C62', 'S']]);
  });

  it('keeps what the request says, normalising identifiers', () => {
    const content = toInvoiceContent(
      {
        invoice_number: 'FA-2026-1', issue_date: '2026-11-22', delivery_date: '2026-11-20', currency_code: 'CZK', variable_symbol: ' 123 ',
        supplier_iban: null, payment_means_code: '48', buyer: { name: 'Kupec', vat_id: 'sk 2020 000004', ico: '35 757 442', country_code: 'cz' }, lines: [line],
      },
      defaults,
    );
    expect(content).to.include({ invoice_number: 'FA-2026-1', delivery_date: '2026-11-20', currency_code: 'CZK', variable_symbol: '123', supplier_iban: null, payment_means_code: '48' });
    expect(content.buyer).to.include({ vat_id: 'SK2020000004', ico: '35757442', country_code: 'CZ', street: '' });
  });

  it('leaves no variable symbol when the number is not all digits', () =>
    expect(toInvoiceContent({ invoice_number: 'FA-1', issue_date: '2026-11-22', lines: [line] }, defaults).variable_symbol).to.equal(null));

  it('refuses a due_date before the issue_date, at due_date', () => {
    const refusal = (() => {
      try {
        toInvoiceContent({ issue_date: '2026-11-22', due_date: '2026-11-21', lines: [line] }, defaults);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).to.be.instanceOf(InvalidFields);
    expect((refusal as InvalidFields).problems).to.deep.equal([
      { loc: ['body', 'due_date'], msg: 'due_date 2026-11-21 is before issue_date 2026-11-22', type: 'value_error', input: '2026-11-21' },
    ]);
  });

  it('takes a due_date on or after the issue_date, or none', () => {
    expect(toInvoiceContent({ issue_date: '2026-11-22', due_date: '2026-11-22', lines: [line] }, defaults).due_date).to.equal('2026-11-22');
    expect(toInvoiceContent({ issue_date: '2026-11-22', due_date: '2027-01-05', lines: [line] }, defaults).due_date).to.equal('2027-01-05');
    expect(toInvoiceContent({ issue_date: '2026-11-22', due_date: null, lines: [line] }, defaults).due_date).to.equal(null);
  });

  it('drops a delivery date equal to the issue date (the spec: omit when equal)', () =>
    expect(toInvoiceContent({ issue_date: '2026-11-22', delivery_date: '2026-11-22', lines: [line] }, defaults).delivery_date).to.equal(null));

  describe('the seller\'s address the service knows (SK-R-002..004)', () => {
    const block = { name: 'Dodávateľ s.r.o.', vat_id: 'SK2020273893' };
    const supplierOf = (supplier: Record<string, string>) => toInvoiceContent({ issue_date: '2026-11-22', supplier: { ...block, ...supplier }, lines: [line] }, defaults).supplier;
    const companyAddress = { street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01' };

    it('a supplier block of the company (by IČ DPH or IČO) with no address gets the company\'s', () => {
      expect(supplierOf({})).to.include(companyAddress);
      expect(supplierOf({ vat_id: '', ico: '35757442' })).to.include(companyAddress);
    });
    it('an address in the block stands as given, never mixed with the company\'s', () =>
      expect(supplierOf({ city: 'Trnava' })).to.include({ street: '', city: 'Trnava', postal_code: '' }));
    it('another seller, or the company abroad, is not given the company\'s address', () => {
      expect(supplierOf({ vat_id: 'SK2020000004' })).to.include({ street: '', city: '', postal_code: '' });
      expect(supplierOf({ country_code: 'CZ' })).to.include({ street: '', city: '', postal_code: '' });
    });
  });

  it('needs a buyer or a directory customer', () =>
    expect(() => toInvoiceContent({ issue_date: '2026-11-22', lines: [line] }, { ...defaults, buyer: null })).to.throw(InvalidFields, /buyer/));

  describe('preceding_invoice (BG-3)', () => {
    const found = { invoice_id: 'a1b2c3d4-0000-4000-8000-000000000001', invoice_number: '2026000001', issue_date: '2026-11-01', invoice_type: '380' as const, source: 'api' as const };
    const request = (preceding: { id: string } | { number: string; issue_date: string }) =>
      ({ issue_date: '2026-11-22', invoice_type: '384' as const, preceding_invoice: preceding, lines: [line] });
    const locOf = (f: () => unknown) => {
      try { f(); } catch (e) { if (e instanceof InvalidFields) return e.problems.map((p) => p.loc); throw e; }
      return null;
    };

    it('an id of the company\'s invoice gives its number, date and id', () =>
      expect(toInvoiceContent(request({ id: found.invoice_id }), { ...defaults, preceding_invoice: found }).billing_reference)
        .to.deep.equal({ invoice_number: '2026000001', issue_date: '2026-11-01', invoice_id: found.invoice_id }));

    it('a number and date are taken as they are (an invoice issued elsewhere)', () =>
      expect(toInvoiceContent(request({ number: ' FA/7 ', issue_date: '2025-12-31' }), defaults).billing_reference)
        .to.deep.equal({ invoice_number: 'FA/7', issue_date: '2025-12-31' }));

    it('an id the company has no invoice under, a received invoice or a credit note: 422 at preceding_invoice.id', () => {
      const at = [['body', 'preceding_invoice', 'id']];
      expect(locOf(() => toInvoiceContent(request({ id: found.invoice_id }), defaults))).to.deep.equal(at);
      expect(locOf(() => toInvoiceContent(request({ id: found.invoice_id }), { ...defaults, preceding_invoice: { ...found, source: 'peppol' } }))).to.deep.equal(at);
      expect(locOf(() => toInvoiceContent(request({ id: found.invoice_id }), { ...defaults, preceding_invoice: { ...found, invoice_type: '381' } }))).to.deep.equal(at);
    });

    it('none by default', () => expect(toInvoiceContent({ issue_date: '2026-11-22', lines: [line] }, defaults).billing_reference).to.equal(null));
  });
});
