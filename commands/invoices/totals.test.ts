import { expect } from 'chai';
import type { InvoiceContent, InvoiceLine, InvoiceTotals, Party } from './model.ts';
import { Dec, formatMoney, percentOf, sum } from './money.ts';
import { computeTotals } from './totals.ts';

const supplier: Party = {
  name: 'Dodávateľ s.r.o.',
  vat_id: 'SK2020273893',
  ico: '35757442',
  dic: '2020273893',
  peppol_id: '0245:2020273893',
  street: 'Hlavná 1',
  city: 'Bratislava',
  postal_code: '811 01',
  country_code: 'SK',
};
const buyer: Party = { ...supplier, name: 'Odberateľ a.s.', peppol_id: null };

let lineNumber = 0;
function line(quantity: string, unit_price: string, vat_rate: string, extra: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    line_number: ++lineNumber,
    item_name: 'Item',
    quantity,
    unit_code: 'C62',
    unit_price,
    vat_rate,
    vat_category_code: 'S',
    vat_exemption_reason_code: null,
    discount_percentage: null,
    discount_amount: null,
    ...extra,
  };
}

function invoice(lines: InvoiceLine[], extra: Partial<InvoiceContent> = {}): InvoiceContent {
  return {
    invoice_number: 'FA-2025-0001',
    invoice_type: '380',
    issue_date: '2025-03-01',
    due_date: '2025-03-15',
    delivery_date: null,
    currency_code: 'EUR',
    supplier,
    buyer,
    customer_id: null,
    supplier_iban: 'SK3112000000198742637541',
    payment_means_code: '30',
    variable_symbol: '20250001',
    note: null,
    buyer_reference: null,
    order_reference: null,
    billing_reference: null,
    lines,
    ...extra,
  };
}

/** The totals without the per-line detail, for compact expectations. */
function headline(t: InvoiceTotals) {
  const { total_net, total_vat, total_gross, payable_rounding_amount, amount_due, zzz_correction_amount } = t;
  return { total_net, total_vat, total_gross, payable_rounding_amount, amount_due, zzz_correction_amount };
}

const exempt = (category: 'E' | 'AE' | 'K' | 'Z', code: string | null) => ({
  vat_category_code: category,
  vat_exemption_reason_code: code,
});

describe('computeTotals', () => {
  describe('mixed rates in one invoice: 23/19/5 and 0 with Z, E, AE, K', () => {
    const totals = computeTotals(
      invoice([
        line('2', '100.00', '23'), // 200.00, VAT 46.00
        line('3', '10.10', '19'), // 30.30, VAT 5.757 → 5.76
        line('1', '50.00', '5'), // 50.00, VAT 2.50
        line('4', '12.50', '0', exempt('Z', null)), // 50.00
        line('1', '80.00', '0', exempt('E', 'VATEX-EU-132-1I')), // 80.00
        line('1', '1000.00', '0', exempt('AE', 'VATEX-EU-AE')), // 1000.00
        line('5', '20.00', '0', exempt('K', 'VATEX-EU-IC')), // 100.00
        line('1', '0.99', '23.00'), // 0.99, VAT 0.2277 → 0.23; same group as line 1 ("23.00" = "23")
      ]),
    );

    it('computes each line', () => {
      expect(totals.lines.map((l) => [l.line_net, l.line_vat, l.line_gross_amount])).to.deep.equal([
        ['200.00', '46.00', '246.00'],
        ['30.30', '5.76', '36.06'],
        ['50.00', '2.50', '52.50'],
        ['50.00', '0.00', '50.00'],
        ['80.00', '0.00', '80.00'],
        ['1000.00', '0.00', '1000.00'],
        ['100.00', '0.00', '100.00'],
        ['0.99', '0.23', '1.22'],
      ]);
    });

    it('groups by category, rate and exemption, in category order then rate descending', () => {
      // S 23: 200.99 × 23 % = 46.2277 → 46.23
      expect(totals.vat_breakdown).to.deep.equal([
        { vat_category_code: 'S', vat_rate: '23', vat_exemption_reason_code: null, taxable_amount: '200.99', tax_amount: '46.23' },
        { vat_category_code: 'S', vat_rate: '19', vat_exemption_reason_code: null, taxable_amount: '30.30', tax_amount: '5.76' },
        { vat_category_code: 'S', vat_rate: '5', vat_exemption_reason_code: null, taxable_amount: '50.00', tax_amount: '2.50' },
        { vat_category_code: 'Z', vat_rate: '0', vat_exemption_reason_code: null, taxable_amount: '50.00', tax_amount: '0.00' },
        { vat_category_code: 'E', vat_rate: '0', vat_exemption_reason_code: 'VATEX-EU-132-1I', taxable_amount: '80.00', tax_amount: '0.00' },
        { vat_category_code: 'AE', vat_rate: '0', vat_exemption_reason_code: 'VATEX-EU-AE', taxable_amount: '1000.00', tax_amount: '0.00' },
        { vat_category_code: 'K', vat_rate: '0', vat_exemption_reason_code: 'VATEX-EU-IC', taxable_amount: '100.00', tax_amount: '0.00' },
      ]);
    });

    it('adds up the document', () => {
      // net 200.99 + 30.30 + 50 + 50 + 80 + 1000 + 100 = 1511.29; VAT 46.23 + 5.76 + 2.50 = 54.49
      expect(totals.line_extension_amount).to.equal('1511.29');
      expect(headline(totals)).to.deep.equal({
        total_net: '1511.29',
        total_vat: '54.49',
        total_gross: '1565.78',
        payable_rounding_amount: '0.00',
        amount_due: '1565.78',
        zzz_correction_amount: '0.00',
      });
      expect(totals.allowances_charges).to.deep.equal([]);
      expect(totals.allowance_total).to.equal('0.00');
      expect(totals.charge_total).to.equal('0.00');
    });

    it('groups exemption codes case-insensitively, as BR-CL-22 compares them', () => {
      const t = computeTotals(
        invoice([line('1', '10', '0', exempt('K', 'vatex-eu-ic')), line('1', '20', '0', exempt('K', 'VATEX-EU-IC'))]),
      );
      expect(t.vat_breakdown.map((s) => [s.vat_exemption_reason_code, s.taxable_amount])).to.deep.equal([['VATEX-EU-IC', '30.00']]);
    });
    it('splits one category into separate groups by exemption reason', () => {
      const t = computeTotals(
        invoice([line('1', '10', '0', exempt('E', 'VATEX-EU-132')), line('1', '20', '0', exempt('E', 'VATEX-EU-143'))]),
      );
      expect(t.vat_breakdown.map((s) => [s.vat_exemption_reason_code, s.taxable_amount])).to.deep.equal([
        ['VATEX-EU-132', '10.00'],
        ['VATEX-EU-143', '20.00'],
      ]);
    });
  });

  describe('discounts', () => {
    it('takes a percentage of quantity × price, rounded half-up (10 × 15.50 less 10 %)', () => {
      // before 155.00, discount 15.50, net 139.50, VAT 23 % = 32.085 → 32.09 (an x.xx5 edge)
      const [l] = computeTotals(invoice([line('10', '15.50', '23', { discount_percentage: '10' })])).lines;
      expect(l).to.deep.equal({
        line_number: l?.line_number,
        line_gross_before_discount: '155.00',
        discount: '15.50',
        line_net: '139.50',
        line_vat: '32.09',
        line_gross_amount: '171.59',
      });
    });
    it('rounds a percentage discount to the cent (7 × 1.11 less 12.5 %)', () => {
      // before 7.77, discount 0.97125 → 0.97, net 6.80
      const [l] = computeTotals(invoice([line('7', '1.11', '19', { discount_percentage: '12.5' })])).lines;
      expect([l?.discount, l?.line_net]).to.deep.equal(['0.97', '6.80']);
    });
    it('subtracts an amount discount (3 × 33.33 less 9.99)', () => {
      // before 99.99, net 90.00, VAT 19 % = 17.10
      const t = computeTotals(invoice([line('3', '33.33', '19', { discount_amount: '9.99' })]));
      expect([t.lines[0]?.discount, t.lines[0]?.line_net, t.total_vat, t.total_gross]).to.deep.equal([
        '9.99',
        '90.00',
        '17.10',
        '107.10',
      ]);
    });
    it('treats a 100 % discount as a free line', () => {
      const t = computeTotals(invoice([line('2', '10', '23', { discount_percentage: '100' })]));
      expect(headline(t).total_gross).to.equal('0.00');
    });
  });

  describe('negative quantities', () => {
    it('nets a returned item against a sold one', () => {
      // −2 × 49.99 = −99.98, VAT −22.9954 → −23.00, gross −122.98; 200.00 + 46.00 = 246.00
      // group: 100.02 × 23 % = 23.0046 → 23.00; 100.02 + 23.00 = 123.02 = 246.00 − 122.98
      const t = computeTotals(invoice([line('-2', '49.99', '23'), line('1', '200', '23')]));
      expect(t.lines[0]?.line_gross_amount).to.equal('-122.98');
      expect(headline(t)).to.deep.equal({
        total_net: '100.02',
        total_vat: '23.00',
        total_gross: '123.02',
        payable_rounding_amount: '0.00',
        amount_due: '123.02',
        zzz_correction_amount: '0.00',
      });
    });
    it('rounds a negative half away from zero (−1 × 0.50 at 19 %: −0.095 → −0.10)', () => {
      const t = computeTotals(invoice([line('-1', '0.50', '19')]));
      expect([t.lines[0]?.line_vat, t.total_vat, t.amount_due]).to.deep.equal(['-0.10', '-0.10', '-0.60']);
    });
    it('applies a percentage discount to a negative line symmetrically', () => {
      // −4 × 25 = −100.00, 10 % = −10.00, net −90.00
      const [l] = computeTotals(invoice([line('-4', '25', '23', { discount_percentage: '10' })])).lines;
      expect([l?.discount, l?.line_net]).to.deep.equal(['-10.00', '-90.00']);
    });
  });

  it('computes a foreign-currency (CZK) invoice with exactly the same arithmetic', () => {
    const lines = [line('3', '1234.56', '21'), line('1', '99.99', '12', { discount_percentage: '5' })];
    const czk = computeTotals(invoice(lines, { currency_code: 'CZK' }));
    expect(czk).to.deep.equal(computeTotals(invoice(lines)));
    // 3703.68 × 21 % = 777.7728 → 777.77; 99.99 − 5.00 (4.9995) = 94.99, × 12 % = 11.3988 → 11.40
    expect(headline(czk)).to.include({ total_net: '3798.67', total_vat: '789.17', total_gross: '4587.84' });
  });

  describe('rounding edges', () => {
    it('rounds quantity × price half-up in decimal (3 × 0.335 = 1.005 → 1.01)', () => {
      expect(computeTotals(invoice([line('3', '0.335', '0', exempt('Z', null))])).total_net).to.equal('1.01');
    });
    it('rounds an x.xx5 VAT up (0.50 at 19 % = 0.095 → 0.10)', () => {
      expect(computeTotals(invoice([line('1', '0.50', '19')])).total_vat).to.equal('0.10');
    });
    it('keeps 3 lines of 0.05 at 23 % without a correction', () => {
      // per line 0.0115 → 0.01, gross 0.06 × 3 = 0.18; per group 0.15 + 0.0345 → 0.03 = 0.18
      const t = computeTotals(invoice([line('1', '0.05', '23'), line('1', '0.05', '23'), line('1', '0.05', '23')]));
      expect(headline(t)).to.deep.equal({
        total_net: '0.15',
        total_vat: '0.03',
        total_gross: '0.18',
        payable_rounding_amount: '0.00',
        amount_due: '0.18',
        zzz_correction_amount: '0.00',
      });
    });
    it('carries fractional quantities and prices with many decimals', () => {
      // 1.5 × 3.3333 = 4.99995 → 5.00
      expect(computeTotals(invoice([line('1.5', '3.3333', '23')])).lines[0]?.line_net).to.equal('5.00');
    });
  });

  describe('the ZZZ rounding correction', () => {
    it('does not arise for a single line', () => {
      const t = computeTotals(invoice([line('1', '0.02', '23')]));
      expect(t.allowances_charges).to.deep.equal([]);
      expect(t.zzz_correction_amount).to.equal('0.00');
    });
    it('does not arise in 0 % groups, however many lines', () => {
      const lines = Array.from({ length: 50 }, () => line('1', '0.01', '0', exempt('Z', null)));
      expect(computeTotals(invoice(lines)).allowances_charges).to.deep.equal([]);
    });
    it('does not arise when per-line and per-group VAT agree', () => {
      expect(computeTotals(invoice([line('1', '10', '23'), line('1', '20', '23')])).zzz_correction_amount).to.equal('0.00');
    });

    it('adds a ZZZ charge when the lines add up to more (2 × 0.50 at 19 %)', () => {
      // lines: 0.095 → 0.10 each, gross 0.60 + 0.60 = 1.20; group: 1.00 + 0.19 = 1.19, one cent short.
      // charge 0.01: 1.01 + 0.1919 → 0.19 = 1.20
      const t = computeTotals(invoice([line('1', '0.50', '19'), line('1', '0.50', '19')]));
      expect(t.allowances_charges).to.deep.equal([
        {
          charge: true,
          reason_code: 'ZZZ',
          reason: 'Rounding correction',
          amount: '0.01',
          vat_category_code: 'S',
          vat_rate: '19',
          vat_exemption_reason_code: null,
        },
      ]);
      expect(t.vat_breakdown[0]).to.include({ taxable_amount: '1.01', tax_amount: '0.19' });
      expect([t.line_extension_amount, t.charge_total, t.allowance_total]).to.deep.equal(['1.00', '0.01', '0.00']);
      expect(headline(t)).to.deep.equal({
        total_net: '1.01',
        total_vat: '0.19',
        total_gross: '1.20',
        payable_rounding_amount: '0.00',
        amount_due: '1.20',
        zzz_correction_amount: '0.01',
      });
    });

    it('adds a ZZZ allowance when the lines add up to less (2 × 0.02 at 23 %)', () => {
      // lines: 0.0046 → 0.00 each, gross 0.04; group: 0.04 + 0.0092 → 0.01 = 0.05, one cent over.
      // allowance 0.01: 0.03 + 0.0069 → 0.01 = 0.04
      const t = computeTotals(invoice([line('1', '0.02', '23'), line('1', '0.02', '23')]));
      expect(t.allowances_charges).to.have.length(1);
      expect(t.allowances_charges[0]).to.include({ charge: false, reason_code: 'ZZZ', amount: '0.01' });
      expect(t.allowance_total).to.equal('0.01');
      expect(headline(t)).to.deep.equal({
        total_net: '0.03',
        total_vat: '0.01',
        total_gross: '0.04',
        payable_rounding_amount: '0.00',
        amount_due: '0.04',
        zzz_correction_amount: '-0.01',
      });
    });

    it('puts what no cent can reach into the payable rounding (4 × 0.02 at 23 %)', () => {
      // lines: gross 0.02 × 4 = 0.08; group 0.08 + 0.0184 → 0.02 = 0.10 (two over).
      // allowance 0.01: 0.07 + 0.0161 → 0.02 = 0.09 (one over); 0.02: 0.06 + 0.0138 → 0.01 = 0.07 (one
      // under). Both miss by a cent: the smaller allowance wins and −0.01 goes to BT-114.
      const t = computeTotals(invoice([1, 2, 3, 4].map(() => line('1', '0.02', '23'))));
      expect(headline(t)).to.deep.equal({
        total_net: '0.07',
        total_vat: '0.02',
        total_gross: '0.09',
        payable_rounding_amount: '-0.01',
        amount_due: '0.08',
        zzz_correction_amount: '-0.01',
      });
    });

    it('adds no ZZZ when no cent gets closer, only the payable rounding (0.01 + 0.02 at 23 %)', () => {
      // lines: 0.01 + 0.02, VAT 0.00 each, gross 0.03; group 0.03 + 0.0069 → 0.01 = 0.04 (one over).
      // allowance 0.01: 0.02 + 0.0046 → 0.00 = 0.02 (one under): no closer, so no correction.
      const t = computeTotals(invoice([line('1', '0.01', '23'), line('1', '0.02', '23')]));
      expect(t.allowances_charges).to.deep.equal([]);
      expect(headline(t)).to.deep.equal({
        total_net: '0.03',
        total_vat: '0.01',
        total_gross: '0.04',
        payable_rounding_amount: '-0.01',
        amount_due: '0.03',
        zzz_correction_amount: '0.00',
      });
    });

    it('corrects each group on its own and signs the sum', () => {
      // S 19 needs a 0.01 charge, S 23 a 0.01 allowance (the two cases above): net sum 0.00
      const t = computeTotals(
        invoice([line('1', '0.02', '23'), line('1', '0.02', '23'), line('1', '0.50', '19'), line('1', '0.50', '19')]),
      );
      expect(t.allowances_charges.map((c) => [c.charge, c.vat_rate, c.amount])).to.deep.equal([
        [false, '23', '0.01'],
        [true, '19', '0.01'],
      ]);
      expect([t.zzz_correction_amount, t.allowance_total, t.charge_total, t.amount_due]).to.deep.equal([
        '0.00',
        '0.01',
        '0.01',
        '1.24',
      ]);
    });

    it('reconciles many small lines (100 × 0.01 at 23 %)', () => {
      // lines: 0.0023 → 0.00 each, gross 1.00; group 1.00 + 0.23 = 1.23. Allowance 0.19:
      // 0.81 + 0.1863 → 0.19 = 1.00 exactly (0.18 would give 0.82 + 0.19 = 1.01).
      const t = computeTotals(invoice(Array.from({ length: 100 }, () => line('1', '0.01', '23'))));
      expect(headline(t)).to.deep.equal({
        total_net: '0.81',
        total_vat: '0.19',
        total_gross: '1.00',
        payable_rounding_amount: '0.00',
        amount_due: '1.00',
        zzz_correction_amount: '-0.19',
      });
    });
  });

  describe('document sizes', () => {
    it('computes a 1-line invoice', () => {
      // 1 × 1234.56 at 23 % = 283.9488 → 283.95
      expect(headline(computeTotals(invoice([line('1', '1234.56', '23')])))).to.include({
        total_net: '1234.56',
        total_vat: '283.95',
        total_gross: '1518.51',
      });
    });
    it('computes a 200-line invoice', () => {
      // each 1.11 at 19 %: 0.2109 → 0.21, gross 1.32; 200 lines: 264.00. Group: 222.00 + 42.18 = 264.18;
      // allowance 0.15: 221.85 + 42.1515 → 42.15 = 264.00 exactly.
      const t = computeTotals(invoice(Array.from({ length: 200 }, () => line('1', '1.11', '19'))));
      expect(t.lines).to.have.length(200);
      expect(headline(t)).to.deep.equal({
        total_net: '221.85',
        total_vat: '42.15',
        total_gross: '264.00',
        payable_rounding_amount: '0.00',
        amount_due: '264.00',
        zzz_correction_amount: '-0.15',
      });
    });
    it('computes an invoice without lines as zeros', () => {
      expect(headline(computeTotals(invoice([])))).to.deep.equal({
        total_net: '0.00',
        total_vat: '0.00',
        total_gross: '0.00',
        payable_rounding_amount: '0.00',
        amount_due: '0.00',
        zzz_correction_amount: '0.00',
      });
    });
  });

  it('keeps its invariants over 500 generated invoices', () => {
    // amount_due = Σ line_gross_amount; each tax = round(taxable × rate); each group misses by at most
    // a cent (so the payable rounding is at most a cent per group); total_net = Σ taxable.
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const rates = ['23', '19', '5', '0'];
    for (let i = 0; i < 500; i++) {
      const lines = Array.from({ length: 1 + next(30) }, () => {
        const rate = rates[next(4)] ?? '23';
        const cents = String(next(100000) - (next(10) === 0 ? 50000 : 0));
        return line(String(1 + next(5)), new Dec(cents).div(100).abs().toFixed(2), rate, {
          ...(rate === '0' ? exempt('Z', null) : {}),
          quantity: next(8) === 0 ? '-1' : String(1 + next(5)),
          discount_percentage: next(5) === 0 ? String(next(50)) : null,
        });
      });
      const t = computeTotals(invoice(lines));
      const money = (s: string) => new Dec(s);
      expect(t.amount_due).to.equal(formatMoney(sum(t.lines.map((l) => money(l.line_gross_amount)))));
      expect(money(t.payable_rounding_amount).abs().lte(new Dec('0.01').times(t.vat_breakdown.length))).to.equal(true);
      expect(t.total_net).to.equal(formatMoney(sum(t.vat_breakdown.map((s) => money(s.taxable_amount)))));
      for (const s of t.vat_breakdown) {
        expect(s.tax_amount).to.equal(formatMoney(percentOf(money(s.taxable_amount), money(s.vat_rate))));
      }
    }
  });
});
