import { expect } from 'chai';
import { codeLists } from './code-lists.ts';
import type { InvoiceContent, InvoiceLine, Party, RuleFinding } from './model.ts';
import { carriesVatIds, checkInvoice } from './rules.ts';
import { ibanMod97 } from '../shared/slovak-identifiers.ts';

// Small hand-made lists keep these tests pure; the loader's test proves the real ones.
const lists = codeLists({
  unitCodes: ['C62', 'EA', 'H87', 'HUR', 'DAY', 'KGM', 'XBX'],
  vatexCodes: ['VATEX-EU-AE', 'VATEX-EU-IC', 'VATEX-EU-132', 'VATEX-EU-143', 'VATEX-EU-G', 'VATEX-EU-O'],
  currencyCodes: ['EUR', 'CZK', 'USD'],
  countryCodes: ['SK', 'CZ', 'AT', 'DE', 'US'],
});

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
const buyer: Party = {
  name: 'Odberateľ a.s.',
  vat_id: 'SK2022222213',
  ico: '31322832',
  dic: '2022222213',
  peppol_id: '9950:sk2022222213svctest',
  street: 'Mlynská 2',
  city: 'Košice',
  postal_code: '04001',
  country_code: 'SK',
};

function line(extra: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    line_number: 1,
    item_name: 'Consulting',
    quantity: '10',
    unit_code: 'HUR',
    unit_price: '50.00',
    vat_rate: '23',
    vat_category_code: 'S',
    vat_exemption_reason_code: null,
    discount_percentage: null,
    discount_amount: null,
    ...extra,
  };
}

function invoice(extra: Partial<InvoiceContent> = {}): InvoiceContent {
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
    lines: [line()],
    ...extra,
  };
}

const withLine = (extra: Partial<InvoiceLine>) => invoice({ lines: [line(extra)] });
const check = (content: InvoiceContent) => checkInvoice(content, lists);
const rules = (content: InvoiceContent) => check(content).map((f) => f.rule);
/** The one finding of a rule, to assert its severity, field and message. */
function finding(content: InvoiceContent, rule: string): RuleFinding {
  const found = check(content).filter((f) => f.rule === rule);
  expect(found, `findings of ${rule} in ${JSON.stringify(check(content))}`).to.have.length(1);
  return found[0] as RuleFinding;
}
/** A valid IBAN of another country, check digits computed (ISO 13616). */
const foreignIban = (country: string, bban: string) =>
  `${country}${String(98 - ibanMod97(`${country}00${bban}`)).padStart(2, '0')}${bban}`;

describe('checkInvoice', () => {
  it('finds nothing in a correct invoice', () => expect(check(invoice())).to.deep.equal([]));

  it('finds nothing in a correct invoice with every zero-rated category', () => {
    const lines = [
      line({ line_number: 1 }),
      line({ line_number: 2, vat_rate: '19' }),
      line({ line_number: 3, vat_rate: '5.00' }),
      line({ line_number: 4, vat_rate: '0', vat_category_code: 'Z' }),
      line({ line_number: 5, vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132' }),
      line({ line_number: 6, vat_rate: '0', vat_category_code: 'AE', vat_exemption_reason_code: 'VATEX-EU-AE' }),
      line({ line_number: 7, vat_rate: '0', vat_category_code: 'K', vat_exemption_reason_code: 'vatex-eu-ic' }),
    ];
    expect(check(invoice({ lines }))).to.deep.equal([]);
  });

  describe('VAT categories and rates', () => {
    it('BR-S-05 / SK-SVC-010: refuses vat_rate 0 with category S', () => {
      const content = withLine({ vat_rate: '0' });
      expect(rules(content)).to.deep.equal(['BR-S-05', 'SK-SVC-010']);
      expect(finding(content, 'SK-SVC-010')).to.include({ severity: 'fatal', field: 'lines[0].vat_rate' });
    });
    it('BR-S-05: a foreign seller gets only the EN16931 rule for S at 0 %', () => {
      const foreign: Party = { ...supplier, vat_id: 'ATU12345678', country_code: 'AT', ico: null, dic: null, peppol_id: null };
      expect(rules(invoice({ supplier: foreign, lines: [line({ vat_rate: '0' })] }))).to.deep.equal(['BR-S-05']);
    });
    it('SK-SVC-011: a Slovak seller\'s S rate is 5, 19 or 23', () => {
      expect(finding(withLine({ vat_rate: '20' }), 'SK-SVC-011')).to.include({ severity: 'fatal', field: 'lines[0].vat_rate' });
      expect(rules(withLine({ vat_rate: '23.00' }))).to.deep.equal([]);
    });
    it('SK-SVC-011: does not judge a foreign seller\'s rate', () => {
      const foreign: Party = { ...supplier, vat_id: 'DE123456789', country_code: 'DE', ico: null, dic: null, peppol_id: null };
      expect(rules(invoice({ supplier: foreign, currency_code: 'EUR', lines: [line({ vat_rate: '19' })] }))).to.deep.equal([]);
      expect(rules(invoice({ supplier: foreign, lines: [line({ vat_rate: '7' })] }))).to.deep.equal([]);
    });
    const zeroRated: [string, InvoiceLine['vat_category_code'], string | null][] = [
      ['BR-Z-05', 'Z', null],
      ['BR-E-05', 'E', 'VATEX-EU-132'],
      ['BR-AE-05', 'AE', 'VATEX-EU-AE'],
      ['BR-IC-05', 'K', 'VATEX-EU-IC'],
    ];
    for (const [rule, category, reason] of zeroRated) {
      it(`${rule}: category ${category} has rate 0`, () => {
        const content = withLine({ vat_category_code: category, vat_rate: '23', vat_exemption_reason_code: reason });
        expect(rules(content)).to.deep.equal([rule]);
        expect(finding(content, rule).field).to.equal('lines[0].vat_rate');
      });
    }
    const needReason: [string, InvoiceLine['vat_category_code']][] = [
      ['BR-E-10', 'E'],
      ['BR-AE-10', 'AE'],
      ['BR-IC-10', 'K'],
    ];
    for (const [rule, category] of needReason) {
      it(`${rule}: category ${category} needs an exemption reason code`, () => {
        const content = withLine({ vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: null });
        expect(rules(content)).to.deep.equal([rule]);
        expect(finding(content, rule)).to.include({ severity: 'fatal', field: 'lines[0].vat_exemption_reason_code' });
        expect(rules(withLine({ vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: ' ' }))).to.deep.equal([rule]);
      });
    }
    it('BR-CL-22: the exemption reason code is in the VATEX list', () => {
      const content = withLine({ vat_category_code: 'E', vat_rate: '0', vat_exemption_reason_code: 'VATEX-SK-99' });
      expect(finding(content, 'BR-CL-22')).to.include({ field: 'lines[0].vat_exemption_reason_code' });
    });
    it('BR-S-10 / BR-Z-10: categories S and Z carry no exemption reason', () => {
      expect(rules(withLine({ vat_exemption_reason_code: 'VATEX-EU-132' }))).to.deep.equal(['BR-S-10']);
      expect(rules(withLine({ vat_category_code: 'Z', vat_rate: '0', vat_exemption_reason_code: 'VATEX-EU-132' }))).to.deep.equal([
        'BR-Z-10',
      ]);
    });
    it('BR-CL-18: the category is a UNCL 5305 code', () => {
      const content = withLine({ vat_category_code: 'X' as InvoiceLine['vat_category_code'] });
      expect(finding(content, 'BR-CL-18').field).to.equal('lines[0].vat_category_code');
    });
  });

  describe('one VAT breakdown row per zero-rated category (BR-Z-01, BR-E-01, BR-AE-01, BR-IC-01, BR-G-01, BR-O-01)', () => {
    const oneRow: [string, InvoiceLine['vat_category_code'], string, string][] = [
      ['BR-E-01', 'E', 'VATEX-EU-132', 'VATEX-EU-143'],
      ['BR-AE-01', 'AE', 'VATEX-EU-AE', 'VATEX-EU-132'],
      ['BR-IC-01', 'K', 'VATEX-EU-IC', 'VATEX-EU-132'],
      ['BR-G-01', 'G', 'VATEX-EU-G', 'VATEX-EU-132'],
      ['BR-O-01', 'O', 'VATEX-EU-O', 'VATEX-EU-132'],
    ];
    for (const [rule, category, first, second] of oneRow) {
      it(`given two ${category} lines with exemption codes ${first} and ${second}, when checked, then ${rule} refuses the second`, () => {
        // Given: two rows of one category, which the Schematron allows only once
        const content = invoice({
          lines: [
            line({ line_number: 1, vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: first }),
            line({ line_number: 2, vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: second }),
          ],
        });
        // When / Then
        expect(finding(content, rule)).to.include({ severity: 'fatal', field: 'lines[1].vat_exemption_reason_code' });
        expect(finding(content, rule).message).to.contain(first).and.to.contain(second);
      });
      it(`given two ${category} lines with one exemption code (in any case), when checked, then ${rule} is not reported`, () => {
        const content = invoice({
          lines: [
            line({ line_number: 1, vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: first }),
            line({ line_number: 2, vat_category_code: category, vat_rate: '0.00', vat_exemption_reason_code: ` ${first.toLowerCase()}` }),
          ],
        });
        expect(rules(content)).to.not.include(rule);
      });
    }
    it('given two Z lines at different rates, when checked, then BR-Z-01 refuses the second rate besides BR-Z-05', () => {
      const content = invoice({
        lines: [line({ line_number: 1, vat_category_code: 'Z', vat_rate: '0' }), line({ line_number: 2, vat_category_code: 'Z', vat_rate: '5' })],
      });
      expect(rules(content)).to.deep.equal(['BR-Z-05', 'BR-Z-01']);
      expect(finding(content, 'BR-Z-01').field).to.equal('lines[1].vat_rate');
    });
    it('given S lines at 23, 19 and 5 %, when checked, then nothing is found: S has one row per rate (BR-S-08)', () => {
      const lines = ['23', '19', '5'].map((vat_rate, i) => line({ line_number: i + 1, vat_rate }));
      expect(check(invoice({ lines }))).to.deep.equal([]);
    });
    it('given a line whose rate is not a decimal, when checked, then only SK-J-02 reports it', () => {
      const content = invoice({
        lines: [
          line({ line_number: 1, vat_category_code: 'E', vat_rate: '0', vat_exemption_reason_code: 'VATEX-EU-132' }),
          line({ line_number: 2, vat_category_code: 'E', vat_rate: 'x', vat_exemption_reason_code: 'VATEX-EU-132' }),
        ],
      });
      expect(rules(content)).to.deep.equal(['SK-J-02']);
    });
  });

  describe('who a category needs identified (BR-S-02, BR-Z-02, BR-E-02, BR-AE-02, BR-IC-02, BR-G-02, BR-AF-02, BR-AG-02)', () => {
    const unregistered: Party = { ...supplier, vat_id: '', peppol_id: null };
    const zeroLine = (category: InvoiceLine['vat_category_code'], reason: string | null) =>
      line({ vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: reason });
    const sellerNeedsTaxId: [string, InvoiceLine][] = [
      ['BR-S-02', line()],
      ['BR-Z-02', zeroLine('Z', null)],
      ['BR-E-02', zeroLine('E', 'VATEX-EU-132')],
      ['BR-AF-02', line({ vat_category_code: 'L', vat_rate: '7' })],
      ['BR-AG-02', line({ vat_category_code: 'M', vat_rate: '4' })],
    ];
    for (const [rule, taxed] of sellerNeedsTaxId) {
      it(`given a ${taxed.vat_category_code} line and a supplier with neither vat_id nor dic, when checked, then ${rule} refuses; a dic is enough`, () => {
        const content = invoice({ supplier: { ...unregistered, dic: null }, lines: [taxed] });
        expect(finding(content, rule)).to.include({ severity: 'fatal', field: 'supplier.vat_id' });
        expect(rules(invoice({ supplier: unregistered, lines: [taxed] }))).to.not.include(rule);
      });
    }
    const sellerNeedsVatId: [string, InvoiceLine][] = [
      ['BR-IC-02', zeroLine('K', 'VATEX-EU-IC')],
      ['BR-G-02', zeroLine('G', 'VATEX-EU-G')],
    ];
    for (const [rule, taxed] of sellerNeedsVatId) {
      it(`given a ${taxed.vat_category_code} line and a supplier with a dic but no vat_id, when checked, then ${rule} refuses`, () => {
        expect(finding(invoice({ supplier: unregistered, lines: [taxed] }), rule)).to.include({ severity: 'fatal', field: 'supplier.vat_id' });
      });
    }
    it('given an AE line and a buyer with neither vat_id nor ico, when checked, then BR-AE-02 refuses; an ico is enough', () => {
      const lines = [zeroLine('AE', 'VATEX-EU-AE')];
      const content = invoice({ buyer: { ...buyer, vat_id: '', ico: null, peppol_id: null }, lines });
      expect(finding(content, 'BR-AE-02')).to.include({ severity: 'fatal', field: 'buyer.vat_id' });
      expect(rules(invoice({ buyer: { ...buyer, vat_id: '', peppol_id: null }, lines }))).to.deep.equal([]);
    });
    it('given a K line and a buyer without vat_id, when checked, then BR-IC-02 refuses', () => {
      const content = invoice({ buyer: { ...buyer, vat_id: '', peppol_id: null }, lines: [zeroLine('K', 'VATEX-EU-IC')] });
      expect(finding(content, 'BR-IC-02')).to.include({ severity: 'fatal', field: 'buyer.vat_id' });
    });
  });

  describe('exemption codes that belong to one category (Peppol P0104-P0111) and categories without one (BR-AF-10, BR-AG-10)', () => {
    it('given an E line with VATEX-EU-AE, when checked, then PEPPOL-EN16931-P0107 refuses it', () => {
      const content = withLine({ vat_category_code: 'E', vat_rate: '0', vat_exemption_reason_code: 'vatex-eu-ae' });
      expect(rules(content)).to.deep.equal(['PEPPOL-EN16931-P0107']);
      expect(finding(content, 'PEPPOL-EN16931-P0107').field).to.equal('lines[0].vat_exemption_reason_code');
    });
    it('given each owned code on its own category, when checked, then nothing is found', () => {
      const owned: [InvoiceLine['vat_category_code'], string][] = [['G', 'VATEX-EU-G'], ['O', 'VATEX-EU-O'], ['K', 'VATEX-EU-IC'], ['AE', 'VATEX-EU-AE']];
      for (const [category, code] of owned) {
        expect(rules(withLine({ vat_category_code: category, vat_rate: '0', vat_exemption_reason_code: code })), code).to.deep.equal([]);
      }
    });
    it('given an L or M line with an exemption code, when checked, then BR-AF-10 / BR-AG-10 refuse it', () => {
      expect(rules(withLine({ vat_category_code: 'L', vat_rate: '7', vat_exemption_reason_code: 'VATEX-EU-132' }))).to.deep.equal(['BR-AF-10']);
      expect(rules(withLine({ vat_category_code: 'M', vat_rate: '4', vat_exemption_reason_code: 'VATEX-EU-132' }))).to.deep.equal(['BR-AG-10']);
    });
  });

  describe('not subject to VAT (category O)', () => {
    const notSubject = (extra: Partial<InvoiceLine> = {}) =>
      line({ vat_category_code: 'O', vat_rate: '0', vat_exemption_reason_code: 'VATEX-EU-O', ...extra });
    it('given only O lines and parties with VAT ids, when checked, then nothing is found (the document leaves the VAT ids out)', () => {
      expect(check(invoice({ lines: [notSubject(), notSubject({ line_number: 2 })] }))).to.deep.equal([]);
      expect(carriesVatIds(invoice({ lines: [notSubject()] }))).to.equal(false);
      expect(carriesVatIds(invoice())).to.equal(true);
    });
    it('given an O line and an S line, when checked, then BR-O-11 refuses the other category', () => {
      const content = invoice({ lines: [notSubject(), line({ line_number: 2 }), line({ line_number: 3, vat_rate: '19' })] });
      expect(rules(content)).to.deep.equal(['BR-O-11']);
      expect(finding(content, 'BR-O-11')).to.include({ severity: 'fatal', field: 'lines[1].vat_category_code' });
    });
    it('given an O document whose supplier has a VAT id but no ico, when checked, then BR-CO-26 asks for the ico', () => {
      const content = invoice({ supplier: { ...supplier, ico: null }, lines: [notSubject()] });
      expect(finding(content, 'BR-CO-26')).to.include({ severity: 'fatal', field: 'supplier.ico' });
      expect(rules(invoice({ supplier: { ...supplier, ico: null } }))).to.deep.equal([]); // the VAT id identifies it otherwise
    });
    it('given an O document whose buyer is known only by its VAT id, when checked, then SK-J-11 warns', () => {
      const content = invoice({ buyer: { ...buyer, ico: null, dic: null }, lines: [notSubject()] });
      expect(finding(content, 'SK-J-11')).to.include({ severity: 'warning', field: 'buyer' });
    });
    it('BR-O-05 / BR-O-10: an O line has rate 0 (no rate is written) and an exemption reason', () => {
      expect(rules(invoice({ lines: [notSubject({ vat_rate: '23' })] }))).to.deep.equal(['BR-O-05']);
      expect(rules(invoice({ lines: [notSubject({ vat_exemption_reason_code: null })] }))).to.deep.equal(['BR-O-10']);
    });
  });

  describe('payment', () => {
    it('BR-61: payment means 30 needs supplier_iban', () => {
      expect(finding(invoice({ supplier_iban: null }), 'BR-61')).to.include({ severity: 'fatal', field: 'supplier_iban' });
      expect(rules(invoice({ supplier_iban: '  ' }))).to.deep.equal(['BR-61']);
      expect(rules(invoice({ supplier_iban: null, payment_means_code: '48' }))).to.deep.equal([]);
    });
    it('SK-SVC-001: a Slovak IBAN is SK + 22 digits', () => {
      expect(finding(invoice({ supplier_iban: 'SK31120000001987426375' }), 'SK-SVC-001').message).to.match(/22 digits/);
      expect(rules(invoice({ supplier_iban: 'SK31 1200 0000 1987 4263 7541' }))).to.deep.equal([]); // spaces tolerated
    });
    it('SK-SVC-002: a Slovak IBAN passes the mod-97 check', () => {
      expect(finding(invoice({ supplier_iban: 'SK3112000000198742637542' }), 'SK-SVC-002').message).to.match(/check digits/);
    });
    it('SK-SVC-003: the IBAN\'s currency is the invoice currency', () => {
      expect(finding(invoice({ currency_code: 'CZK' }), 'SK-SVC-003')).to.include({ severity: 'fatal', field: 'currency_code' });
      const czIban = foreignIban('CZ', '08000000001234567890');
      expect(finding(invoice({ supplier_iban: czIban }), 'SK-SVC-003').message).to.match(/CZK/);
      expect(rules(invoice({ supplier_iban: czIban, currency_code: 'CZK' }))).to.deep.equal([]);
      expect(rules(invoice({ supplier_iban: foreignIban('DE', '370400440532013000') }))).to.deep.equal([]); // EUR
    });
    it('SK-J-10: a foreign IBAN without valid check digits is a warning (an account need not be an IBAN)', () => {
      expect(finding(invoice({ supplier_iban: 'DE00370400440532013000' }), 'SK-J-10')).to.include({
        severity: 'warning',
        field: 'supplier_iban',
      });
    });
    it('SK-BR-04: a variable symbol that is not 1-10 digits is a warning', () => {
      expect(finding(invoice({ variable_symbol: 'FA-2025/1' }), 'SK-BR-04')).to.include({
        severity: 'warning',
        field: 'variable_symbol',
      });
      expect(rules(invoice({ variable_symbol: '12345678901' }))).to.deep.equal(['SK-BR-04']);
      expect(rules(invoice({ variable_symbol: '0012345678' }))).to.deep.equal([]);
      expect(rules(invoice({ variable_symbol: null }))).to.deep.equal([]);
    });
    it('BR-CL-16: the payment means code is one we support', () => {
      const content = invoice({ payment_means_code: '99' as InvoiceContent['payment_means_code'] });
      expect(finding(content, 'BR-CL-16').field).to.equal('payment_means_code');
    });
  });

  describe('lines', () => {
    it('BR-16: an invoice has at least one line', () =>
      expect(finding(invoice({ lines: [] }), 'BR-16')).to.include({ severity: 'fatal', field: 'lines' }));
    it('SK-W-LINES: more than 200 lines is a warning (Peppol soft cap)', () => {
      const lines = (n: number) => Array.from({ length: n }, (_, i) => line({ line_number: i + 1 }));
      expect(rules(invoice({ lines: lines(200) }))).to.deep.equal([]);
      expect(finding(invoice({ lines: lines(201) }), 'SK-W-LINES')).to.include({ severity: 'warning', field: 'lines' });
    });
    it('SK-J-01: line numbers are unique', () => {
      const lines = [line({ line_number: 1 }), line({ line_number: 2 }), line({ line_number: 1 })];
      expect(finding(invoice({ lines }), 'SK-J-01').field).to.equal('lines[2].line_number');
    });
    it('BR-CL-23: unit codes are UN/ECE Rec. 20 or 21', () => {
      expect(finding(withLine({ unit_code: 'PCS' }), 'BR-CL-23').field).to.equal('lines[0].unit_code');
      expect(rules(withLine({ unit_code: 'XBX' }))).to.deep.equal([]); // Rec. 21 (box)
    });
    it('SK-J-02: quantity, prices, rate and discounts are decimal strings', () => {
      expect(finding(withLine({ quantity: '1e3' }), 'SK-J-02').field).to.equal('lines[0].quantity');
      expect(finding(withLine({ unit_price: '12,50' }), 'SK-J-02').field).to.equal('lines[0].unit_price');
      expect(finding(withLine({ vat_rate: 'NaN' }), 'SK-J-02').field).to.equal('lines[0].vat_rate');
      expect(finding(withLine({ discount_percentage: 'ten' }), 'SK-J-02').field).to.equal('lines[0].discount_percentage');
      expect(finding(withLine({ discount_amount: '5.' }), 'SK-J-02').field).to.equal('lines[0].discount_amount');
      expect(finding(withLine({ quantity: '' }), 'SK-J-02').message).to.match(/required/);
    });
    it('BR-27: unit_price is not negative', () => {
      expect(finding(withLine({ unit_price: '-1.00' }), 'BR-27')).to.include({ severity: 'fatal', field: 'lines[0].unit_price' });
      expect(rules(withLine({ quantity: '-1' }))).to.deep.equal([]); // a negative quantity is a return
    });
  });

  describe('discounts', () => {
    it('SK-J-03: not both a percentage and an amount', () =>
      expect(finding(withLine({ discount_percentage: '10', discount_amount: '5' }), 'SK-J-03').field).to.equal(
        'lines[0].discount_amount',
      ));
    it('SK-J-04: the percentage is within 0-100', () => {
      expect(finding(withLine({ discount_percentage: '100.01' }), 'SK-J-04').field).to.equal('lines[0].discount_percentage');
      expect(rules(withLine({ discount_percentage: '-5' }))).to.deep.equal(['SK-J-04']);
      expect(rules(withLine({ discount_percentage: '100' }))).to.deep.equal([]);
    });
    it('SK-J-05: the amount is not above the line\'s amount, nor negative', () => {
      // 10 × 50.00 = 500.00
      expect(rules(withLine({ discount_amount: '500.00' }))).to.deep.equal([]);
      expect(finding(withLine({ discount_amount: '500.01' }), 'SK-J-05').field).to.equal('lines[0].discount_amount');
      expect(rules(withLine({ discount_amount: '-1' }))).to.deep.equal(['SK-J-05']);
      expect(rules(withLine({ quantity: '-10', discount_amount: '500.01' }))).to.deep.equal(['SK-J-05']);
    });
  });

  describe('codes', () => {
    it('BR-CL-04: the currency is ISO 4217', () => {
      const content = invoice({ currency_code: 'SKK', supplier_iban: null, payment_means_code: '48' });
      expect(finding(content, 'BR-CL-04')).to.include({ severity: 'fatal', field: 'currency_code' });
    });
    it('BR-CL-14: party countries are ISO 3166-1', () => {
      expect(finding(invoice({ buyer: { ...buyer, country_code: 'XX' } }), 'BR-CL-14').field).to.equal('buyer.country_code');
    });
    it('BR-CL-01: the invoice type is 380, 381, 325 or 384', () => {
      expect(finding(invoice({ invoice_type: '386' as InvoiceContent['invoice_type'] }), 'BR-CL-01').field).to.equal('invoice_type');
    });
  });

  describe('parties', () => {
    for (const at of ['supplier', 'buyer'] as const) {
      const party = at === 'supplier' ? supplier : buyer;
      const content = (changes: Partial<Party>) => invoice({ [at]: { ...party, ...changes } });
      it(`SK-SVC-004: ${at} IČ DPH is SK + 10 digits divisible by 11`, () => {
        const f = finding(content({ vat_id: 'SK2020273894' }), 'SK-SVC-004');
        expect(f).to.include({ severity: 'fatal', field: `${at}.vat_id` });
        expect(f.message).to.match(/IČ DPH is not divisible by 11/);
        expect(rules(content({ vat_id: 'SK12345' }))).to.include('SK-SVC-004');
      });
      it(`SK-SVC-005: ${at} DIČ is 10 digits`, () => {
        const f = finding(content({ dic: '35757442' }), 'SK-SVC-005');
        expect(f).to.include({ field: `${at}.dic` });
        expect(f.message).to.match(/DIČ must be 10 digits \(8 digits looks like an IČO\)/);
      });
      it(`SK-SVC-006: ${at} IČO is 8 digits with a check digit`, () => {
        const f = finding(content({ ico: '35757443' }), 'SK-SVC-006');
        expect(f).to.include({ field: `${at}.ico` });
        expect(f.message).to.match(/IČO check digit/);
      });
      it(`SK-J-08: ${at} IČ DPH is SK + its DIČ`, () => {
        expect(finding(content({ dic: '2022222224' }), 'SK-J-08').field).to.equal(`${at}.vat_id`);
      });
    }
    it('SK-SVC-007: a 0245 participant id is the 10-digit DIČ', () =>
      expect(finding(invoice({ supplier: { ...supplier, peppol_id: '0245:35757442' } }), 'SK-SVC-007').field).to.equal(
        'supplier.peppol_id',
      ));
    it('SK-SVC-008: a 0245 participant DIČ is the digits of the IČ DPH', () =>
      expect(finding(invoice({ buyer: { ...buyer, peppol_id: '0245:2020273893' } }), 'SK-SVC-008').field).to.equal('buyer.peppol_id'));
    it('SK-SVC-009: a sandbox participant id is 9950:sk + IČ DPH digits + svctest', () => {
      expect(rules(invoice({ buyer: { ...buyer, peppol_id: '9950:sk2020273893svctest' } }))).to.deep.equal(['SK-SVC-009']);
      expect(rules(invoice({ buyer: { ...buyer, peppol_id: '9950:sk20222svctest' } }))).to.deep.equal(['SK-SVC-009']);
    });
    it('SK-J-09: a participant id is <scheme>:<identifier>', () =>
      expect(finding(invoice({ buyer: { ...buyer, peppol_id: 'sk2022222213' } }), 'SK-J-09').field).to.equal('buyer.peppol_id'));
    it('BR-CO-09: a foreign VAT id has a country prefix', () =>
      expect(finding(invoice({ buyer: { ...buyer, vat_id: '123456789', country_code: 'DE' } }), 'BR-CO-09').field).to.equal(
        'buyer.vat_id',
      ));
    it('judges IČO and DIČ only for Slovak parties (a Czech buyer has other rules)', () => {
      const czech: Party = { ...buyer, vat_id: 'CZ12345678', ico: '12345678', dic: 'CZ12345678', country_code: 'CZ', peppol_id: null };
      expect(rules(invoice({ buyer: czech }))).to.deep.equal([]);
    });
    it('BR-CO-26: a supplier has a vat_id or an ico', () => {
      expect(finding(invoice({ supplier: { ...supplier, vat_id: '', ico: null, peppol_id: null } }), 'BR-CO-26').field).to.equal(
        'supplier',
      );
      expect(rules(invoice({ supplier: { ...supplier, vat_id: '', peppol_id: null } }))).to.deep.equal([]);
    });
    it('SK-J-11: a buyer without VAT id should have an IČO or DIČ (warning)', () => {
      const content = invoice({ buyer: { ...buyer, vat_id: '', ico: null, dic: null, peppol_id: null } });
      expect(finding(content, 'SK-J-11')).to.include({ severity: 'warning', field: 'buyer' });
    });
  });

  describe('dates', () => {
    it('BR-CO-25: a positive amount due needs a due_date', () => {
      expect(finding(invoice({ due_date: null }), 'BR-CO-25')).to.include({ severity: 'fatal', field: 'due_date' });
      expect(rules(invoice({ due_date: null, lines: [line({ quantity: '-1' })] }))).to.deep.equal([]); // a refund
      expect(rules(invoice({ due_date: null, lines: [line({ discount_percentage: '100' })] }))).to.deep.equal([]); // nothing due
      expect(rules(invoice({ due_date: null, invoice_type: '381' }))).to.deep.equal([]); // a credit note is a refund
      expect(rules(invoice({ due_date: null, invoice_type: '325' }))).to.deep.equal(['BR-CO-25']); // a proforma asks for payment
    });
    it('SK-J-07: a due_date before the issue_date is a warning', () => {
      expect(finding(invoice({ due_date: '2025-02-28' }), 'SK-J-07')).to.include({ severity: 'warning', field: 'due_date' });
      expect(rules(invoice({ due_date: '2025-03-01' }))).to.deep.equal([]);
    });
    it('SK-J-06: dates are real YYYY-MM-DD dates', () => {
      expect(finding(invoice({ delivery_date: '2025-02-30' }), 'SK-J-06').field).to.equal('delivery_date');
      expect(finding(invoice({ issue_date: '1.3.2025' }), 'SK-J-06').field).to.equal('issue_date');
      expect(finding(invoice({ due_date: '2025-3-15' }), 'SK-J-06').field).to.equal('due_date');
      expect(rules(invoice({ delivery_date: '2024-02-29' }))).to.deep.equal([]);
    });
  });

  describe('addresses of a Slovak domestic invoice (SK-R-002 to SK-R-007, Peppol BIS 3.0.22)', () => {
    const blank = { street: '', city: '', postal_code: '' };
    it('warns, per missing part, for the seller (002-004) and the buyer (005-007)', () => {
      const found = check(invoice({ supplier: { ...supplier, ...blank }, buyer: { ...buyer, ...blank } }));
      expect(found.map((f) => `${f.rule} ${f.severity} ${f.field}`)).to.deep.equal([
        'SK-R-002 warning supplier.street',
        'SK-R-003 warning supplier.city',
        'SK-R-004 warning supplier.postal_code',
        'SK-R-005 warning buyer.street',
        'SK-R-006 warning buyer.city',
        'SK-R-007 warning buyer.postal_code',
      ]);
      expect(finding(invoice({ buyer: { ...buyer, city: '  ' } }), 'SK-R-006').message).to.match(/buyer's city \(BT-52/);
    });
    it('a buyer is in Slovakia by its address or its SK VAT id', () => {
      expect(rules(invoice({ buyer: { ...buyer, street: '', country_code: 'CZ', vat_id: 'SK2022222213' } }))).to.include('SK-R-005');
    });
    it('judges only domestic invoices: a foreign buyer or seller gets no address warning', () => {
      const czBuyer = { ...buyer, ...blank, vat_id: 'CZ12345678', ico: null, dic: null, peppol_id: null, country_code: 'CZ' };
      expect(rules(invoice({ buyer: czBuyer })).filter((r) => r.startsWith('SK-R-'))).to.deep.equal([]);
      const atSeller = { ...supplier, ...blank, vat_id: 'ATU12345678', ico: null, dic: null, peppol_id: null, country_code: 'AT' };
      expect(rules(invoice({ supplier: atSeller, supplier_iban: null, payment_means_code: '48' })).filter((r) => r.startsWith('SK-R-'))).to.deep.equal([]);
    });
  });

  it('reports every finding of a bad invoice at once, with paths into the request', () => {
    const content = invoice({
      supplier_iban: null,
      variable_symbol: 'ABC',
      lines: [line(), line({ line_number: 2, vat_rate: '0' }), line({ line_number: 3, unit_code: 'PCS' })],
    });
    expect(check(content).map((f) => `${f.rule} ${f.field}`)).to.deep.equal([
      'BR-61 supplier_iban',
      'SK-BR-04 variable_symbol',
      'BR-S-05 lines[1].vat_rate',
      'SK-SVC-010 lines[1].vat_rate',
      'BR-CL-23 lines[2].unit_code',
    ]);
  });
});
