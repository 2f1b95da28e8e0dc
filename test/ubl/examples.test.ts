// Every official Peppol BIS 3.0.21 example reads into the model; key fields are checked against the
// document itself (read here with plain libxml2 XPath, independently of the reader).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Decimal } from 'decimal.js';
import { parseTrusted } from '../../src/platform/xml/index.ts';
import { readUbl } from '../../src/modules/invoices/ubl/index.ts';
import { artifact, needArtifacts } from '../validation/support/paths.ts';

const DIR = artifact('examples/peppol-bis-3.0.21/rules/examples');
const NSMAP = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

function expected(xml: string) {
  const doc = parseTrusted(xml);
  try {
    const s = (xpath: string) => String(doc.eval(`normalize-space(${xpath})`, NSMAP));
    const n = (xpath: string) => Number(doc.eval(`count(${xpath})`, NSMAP));
    return {
      id: s('/*/cbc:ID'),
      issue: s('/*/cbc:IssueDate'),
      currency: s('/*/cbc:DocumentCurrencyCode'),
      lines: n('/*/cac:InvoiceLine | /*/cac:CreditNoteLine'),
      payable: s('/*/cac:LegalMonetaryTotal/cbc:PayableAmount'),
      net: s('/*/cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount'),
      subtotals: n('/*/cac:TaxTotal/cac:TaxSubtotal'),
      documentAllowancesCharges: n('/*/cac:AllowanceCharge'),
      supplier: s('/*/cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName'),
      buyerEndpoint: s('/*/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID'),
    };
  } finally {
    doc.dispose();
  }
}

describe('UBL reader: official Peppol BIS 3.0.21 examples', () => {
  before(needArtifacts);

  it('reads every example into the model', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.xml')).sort();
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      const xml = fs.readFileSync(path.join(DIR, file), 'utf8');
      const want = expected(xml);
      const { content, totals } = readUbl(xml);
      const at = file;
      expect(content.invoice_number, at).to.equal(want.id);
      expect(content.issue_date, at).to.equal(want.issue);
      expect(content.currency_code, at).to.equal(want.currency);
      expect(content.lines, at).to.have.length(want.lines);
      expect(content.supplier.name, at).to.equal(want.supplier);
      expect(content.buyer.peppol_id, at).to.match(new RegExp(`^\\d{4}:${want.buyerEndpoint}$`));
      expect(new Decimal(totals.amount_due).equals(want.payable), at).to.equal(true);
      expect(new Decimal(totals.total_net).equals(want.net), at).to.equal(true);
      expect(totals.vat_breakdown, at).to.have.length(want.subtotals);
      expect(totals.allowances_charges, at).to.have.length(want.documentAllowancesCharges);
      const lineNets = totals.lines.reduce((sum, l) => sum.plus(l.line_net), new Decimal(0));
      expect(lineNets.toFixed(2), `${at}: Σ line net`).to.equal(totals.line_extension_amount);
      for (const line of content.lines) {
        expect(line.item_name, at).to.not.equal('');
        expect(line.vat_category_code, at).to.be.a('string');
      }
    }
  });

  it('maps the base example field by field', () => {
    const { content, totals } = readUbl(fs.readFileSync(path.join(DIR, 'base-example.xml')));
    expect(content).to.deep.include({
      invoice_number: 'Snippet1',
      invoice_type: '380',
      issue_date: '2017-11-13',
      due_date: '2017-12-01',
      delivery_date: '2017-11-01',
      currency_code: 'EUR',
      supplier_iban: 'IBAN32423940',
      payment_means_code: '30',
      variable_symbol: 'Snippet1',
      buyer_reference: '0150abc',
      billing_reference: null,
      customer_id: null,
    });
    expect(content.supplier).to.deep.equal({
      name: 'SupplierOfficialName Ltd',
      vat_id: 'GB1232434',
      ico: null,
      dic: null,
      peppol_id: '0088:9482348239847239874',
      street: 'Main street 1',
      city: 'London',
      postal_code: 'GB 123 EW',
      country_code: 'GB',
    });
    expect(content.buyer.vat_id).to.equal('SE4598375937');
    expect(content.lines.map((l) => [l.line_number, l.quantity, l.unit_code, l.unit_price, l.vat_category_code, l.vat_rate])).to.deep.equal([
      [1, '7', 'DAY', '400', 'S', '25'],
      [2, '-3', 'DAY', '500', 'S', '25'],
    ]);
    expect(totals.allowances_charges).to.deep.equal([
      { charge: true, reason_code: '', reason: 'Insurance', amount: '25.00', vat_category_code: 'S', vat_rate: '25', vat_exemption_reason_code: null },
    ]);
    expect([totals.line_extension_amount, totals.charge_total, totals.total_net, totals.total_vat, totals.total_gross, totals.amount_due]).to.deep.equal([
      '1300.00',
      '25.00',
      '1325.00',
      '331.25',
      '1656.25',
      '1656.25',
    ]);
  });

  it('reads a credit note with its billing reference', () => {
    const { content } = readUbl(fs.readFileSync(path.join(DIR, 'base-creditnote-correction.xml')));
    expect(content.invoice_type).to.equal('381');
    expect(content.billing_reference).to.deep.equal({ invoice_number: 'Snippet1', issue_date: null });
    expect(content.lines).to.have.length(2);
  });

  it('takes an exempt line’s reason from the VAT breakdown', () => {
    const { content, totals } = readUbl(fs.readFileSync(path.join(DIR, 'vat-category-E.xml')));
    const row = totals.vat_breakdown.find((r) => r.vat_category_code === 'E');
    expect(row?.vat_exemption_reason_code).to.equal('VATEX-EU-F');
    expect(content.lines.filter((l) => l.vat_category_code === 'E').map((l) => l.vat_exemption_reason_code)).to.deep.equal([
      row?.vat_exemption_reason_code ?? null,
    ]);
  });
});
