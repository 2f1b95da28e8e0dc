// Where the builder puts things: the header, README §5.7's traps, and the documents it refuses.
import { expect } from 'chai';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { buildTdd, TddBuildError, type TddHeader } from '../../src/modules/delivery/fs/tax-data-document/index.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { generateInvoice } from '../ubl/support/generate.ts';
import { SEED } from '../ubl/support/matrix.ts';
import { needTddArtifacts, read, TESTFILES } from './support/paths.ts';
import { slovakHeader, TEST_SPID } from './support/headers.ts';
import { query } from './support/tree.ts';
import { describeErrors, tddValidator } from './support/validator.ts';

const DOC = '/pxs:TaxData/pxs:ReportedTransaction/pxs:ReportedDocument';
const HEADER = slovakHeader('C2', '0088:9482348239847239874');

const invoice = (name = 'base-example') => read(TESTFILES, 'invoice/good', `${name}.xml`).toString('utf8');

/** The official invoice with one edit; the edit must apply (a silent no-op would prove nothing). */
function edited(xml: string, from: string | RegExp, to: string): string {
  const out = xml.replace(from, to);
  if (out === xml) throw new Error(`test fixture: ${String(from)} not found`);
  return out;
}

function buildError(xml: string, header: TddHeader = HEADER): TddBuildError {
  try {
    buildTdd(xml, header);
  } catch (err) {
    if (err instanceof TddBuildError) return err;
    throw err;
  }
  throw new Error('expected a TddBuildError');
}

describe('TDD builder', function () {
  this.timeout(120_000);
  before(needTddArtifacts);

  describe('header', () => {
    it('writes the caller values in the XSD order, with S and D as defaults and no TDD number', () => {
      const { s, n, names } = query(buildTdd(invoice(), HEADER));
      expect(names('/pxs:TaxData/*').join(' ')).to.equal(
        'cbc:CustomizationID cbc:ProfileID cbc:UUID cbc:IssueDate cbc:IssueTime pxs:TaxDataTypeCode pxs:DocumentScope ' +
          'pxs:ReporterRole pxs:TaxAuthority pxs:ReportingParty pxs:ReceivingParty pxs:ReportersRepresentative pxs:ReportedTransaction',
      );
      expect(s('/pxs:TaxData/cbc:CustomizationID')).to.equal('urn:peppol:taxdata:sk-1');
      expect(s('/pxs:TaxData/cbc:ProfileID')).to.equal('urn:peppol:taxreporting');
      expect(s('/pxs:TaxData/cbc:UUID')).to.equal(HEADER.uuid);
      expect(s('/pxs:TaxData/cbc:IssueDate')).to.equal('2026-11-23');
      expect(s('/pxs:TaxData/cbc:IssueTime')).to.equal('15:50:00.123Z');
      expect([s('/pxs:TaxData/pxs:TaxDataTypeCode'), s('/pxs:TaxData/pxs:DocumentScope'), s('/pxs:TaxData/pxs:ReporterRole')]).to.deep.equal(['S', 'D', 'C2']);
      expect(s('/pxs:TaxData/pxs:ReportingParty/cbc:EndpointID/@schemeID')).to.equal('0088');
      expect(s('/pxs:TaxData/pxs:ReceivingParty/cbc:EndpointID/@schemeID')).to.equal('0242');
      expect(s('/pxs:TaxData/pxs:ReportersRepresentative/cac:PartyIdentification/cbc:ID')).to.equal(TEST_SPID);
      expect(s('/pxs:TaxData/pxs:ReportersRepresentative/cac:PartyIdentification/cbc:ID/@schemeID')).to.equal('0242');
      expect(n('/pxs:TaxData/cbc:ID')).to.equal(0);
    });

    it('writes R / D and IC / INTL when asked', () => {
      const { s } = query(buildTdd(invoice(), { ...HEADER, taxDataTypeCode: 'R', documentScope: 'INTL', reporterRole: 'C3' }));
      expect([s('/pxs:TaxData/pxs:TaxDataTypeCode'), s('/pxs:TaxData/pxs:DocumentScope'), s('/pxs:TaxData/pxs:ReporterRole')]).to.deep.equal(['R', 'INTL', 'C3']);
    });

    it('refuses header values it cannot write, naming the field', () => {
      const cases: [Partial<TddHeader>, string][] = [
        [{ reportingParty: 'SK2020273893' }, 'reportingParty'],
        [{ receivingParty: '0242:' }, 'receivingParty'],
        [{ uuid: 'not-a-uuid' }, 'uuid'],
        [{ issuedAt: new Date('nonsense') }, 'issuedAt'],
        [{ reportersRepresentative: ' ' }, 'reportersRepresentative'],
        [{ taxAuthority: { id: '', name: 'FS' } }, 'taxAuthority.id'],
      ];
      for (const [override, field] of cases) {
        const err = buildError(invoice(), { ...HEADER, ...override });
        expect([err.rule, err.field], field).to.deep.equal(['TDD-BAD-HEADER', field]);
      }
    });
  });

  describe('README §5.7 traps', () => {
    it('takes the VAT identifier from the PartyTaxScheme with TaxScheme VAT, not the first one', async () => {
      const taxFirst = edited(
        invoice(),
        /(<cac:PartyTaxScheme>\s*<cbc:CompanyID>GB1232434)/,
        '<cac:PartyTaxScheme><cbc:CompanyID>2020273893</cbc:CompanyID><cac:TaxScheme><cbc:ID>TAX</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>$1',
      );
      const tdd = buildTdd(taxFirst, HEADER);
      const { s, n } = query(tdd);
      expect(n(`${DOC}/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme`)).to.equal(1);
      expect(s(`${DOC}/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID`)).to.equal('GB1232434');
      expect(describeErrors((await tddValidator()).validate(tdd))).to.deep.equal([]);
    });

    it("writes no PartyTaxScheme for a party with only our DIČ scheme (not VAT-registered)", () => {
      const content = generateInvoice(SEED, 0);
      const supplier = { ...content.supplier, vat_id: '' };
      const ubl = buildUbl({ ...content, supplier }, computeTotals({ ...content, supplier }));
      expect(ubl).to.include('<cbc:ID>TAX</cbc:ID>');
      const { n } = query(buildTdd(ubl, slovakHeader('C2', supplier.peppol_id ?? '')));
      expect(n(`${DOC}/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme`)).to.equal(0);
      expect(n(`${DOC}/cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode`)).to.equal(1);
    });

    it('drops listVersionID (ibr-tdd-79) and any attribute a TDD rule does not allow, keeping listID, name and currencyID', async () => {
      let xml = edited(invoice(), /listID="SRV">/g, 'listID="SRV" listVersionID="1.2">');
      xml = edited(xml, '<cbc:PaymentMeansCode name="Credit transfer">', '<cbc:PaymentMeansCode name="Credit transfer" listID="UNCL4461">');
      xml = edited(xml, '<cbc:Amount currencyID="EUR">25</cbc:Amount>', '<cbc:Amount currencyID="EUR" currencyCodeListVersionID="2001">25</cbc:Amount>');
      const tdd = buildTdd(xml, HEADER);
      expect(tdd).to.not.match(/listVersionID|currencyCodeListVersionID|listID="UNCL4461"/);
      const { s, n } = query(tdd);
      expect(n(`${DOC}/pxs:DocumentLine/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode[@listID = 'SRV']`)).to.equal(2);
      expect(s(`${DOC}/cac:PaymentMeans/cbc:PaymentMeansCode/@name`)).to.equal('Credit transfer');
      expect(s(`${DOC}/cac:AllowanceCharge/cbc:Amount/@currencyID`)).to.equal('EUR');
      expect(describeErrors((await tddValidator()).validate(tdd))).to.deep.equal([]);
    });

    it("reads the header InvoicePeriod's DescriptionCode (BT-8) from DescriptionCode, and nothing else of it", async () => {
      const xml = edited(
        invoice(),
        '<cbc:BuyerReference>0150abc</cbc:BuyerReference>',
        '<cbc:BuyerReference>0150abc</cbc:BuyerReference><cac:InvoicePeriod><cbc:StartDate>2017-11-01</cbc:StartDate>' +
          '<cbc:EndDate>2017-11-30</cbc:EndDate><cbc:DescriptionCode>35</cbc:DescriptionCode><cbc:Description>November</cbc:Description></cac:InvoicePeriod>',
      );
      const tdd = buildTdd(xml, HEADER);
      const { names, all } = query(tdd);
      expect(names(`${DOC}/cac:InvoicePeriod/*`)).to.deep.equal(['cbc:StartDate', 'cbc:EndDate', 'cbc:DescriptionCode']);
      expect(all(`${DOC}/cac:InvoicePeriod/*`)).to.deep.equal(['2017-11-01', '2017-11-30', '35']);
      expect(describeErrors((await tddValidator()).validate(tdd))).to.deep.equal([]);
    });

    it('copies TaxPointDate, exemption reasons, the tax-currency VAT total, BaseQuantity; drops the price discount (Allowance-example)', async () => {
      const tdd = buildTdd(invoice('Allowance-example'), HEADER);
      const { s, n } = query(tdd);
      expect(s(`${DOC}/cbc:TaxPointDate`)).to.equal('2017-12-01');
      expect(s(`${DOC}/cbc:TaxCurrencyCode`)).to.equal('SEK');
      expect(s(`${DOC}/cac:TaxTotal[1]/cbc:TaxAmount/@currencyID`)).to.equal('EUR');
      expect(s(`${DOC}/cac:TaxTotal[2]/cbc:TaxAmount/@currencyID`)).to.equal('SEK');
      expect(n(`${DOC}/cac:TaxTotal[2]/cac:TaxSubtotal`)).to.equal(0);
      expect(s(`${DOC}/cac:TaxTotal[1]/cac:TaxSubtotal/cac:TaxCategory[cbc:ID = 'E']/cbc:TaxExemptionReason`)).to.equal('Reason for tax exempt');
      expect(n(`${DOC}/pxs:DocumentLine/cac:Price/cac:AllowanceCharge`)).to.equal(0);
      expect(s(`${DOC}/pxs:DocumentLine[1]/cac:Price/cbc:BaseQuantity/@unitCode`)).to.equal('C62');
      expect(s(`${DOC}/cac:InvoicePeriod/cbc:EndDate`)).to.equal('2017-12-31');
      expect(describeErrors((await tddValidator()).validate(tdd))).to.deep.equal([]);
    });

    it('copies the exemption reason code (vat-category-E) and text (vat-category-O) of the breakdown, not of the line', () => {
      const e = query(buildTdd(invoice('vat-category-E'), HEADER));
      expect(e.s(`${DOC}/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode`)).to.equal('VATEX-EU-F');
      const o = query(buildTdd(invoice('vat-category-O'), HEADER));
      expect(o.s(`${DOC}/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReason`)).to.equal('Not subject to VAT');
      expect(o.n(`${DOC}/pxs:DocumentLine/cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReason`)).to.equal(0);
    });

    it('carries a direct debit mandate (BG-19), which phax leaves out', () => {
      const xml = edited(
        invoice(),
        '</cac:PayeeFinancialAccount>',
        '</cac:PayeeFinancialAccount><cac:PaymentMandate><cbc:ID>MANDATE-1</cbc:ID><cac:PayerFinancialAccount><cbc:ID>SK3112000000198742637541</cbc:ID></cac:PayerFinancialAccount></cac:PaymentMandate>',
      );
      const { s } = query(buildTdd(xml, HEADER));
      expect(s(`${DOC}/cac:PaymentMeans/cac:PaymentMandate/cbc:ID`)).to.equal('MANDATE-1');
      expect(s(`${DOC}/cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID`)).to.equal('SK3112000000198742637541');
    });

    it("puts a credit note's CreditedQuantity into InvoicedQuantity and keeps its signs", () => {
      const xml = read(TESTFILES, 'creditnote/good/base-creditnote-correction.xml');
      const { s, n, all } = query(buildTdd(xml, HEADER));
      expect(s(`${DOC}/pxs:DocumentTypeCode`)).to.equal('381');
      expect(all(`${DOC}/pxs:DocumentLine/cbc:InvoicedQuantity`)).to.deep.equal(['7', '-3']);
      expect(all(`${DOC}/pxs:DocumentLine/cbc:InvoicedQuantity/@unitCode`)).to.deep.equal(['DAY', 'DAY']);
      expect(n(`${DOC}//cbc:CreditedQuantity`)).to.equal(0);
      expect(s(`${DOC}/pxs:MonetaryTotal/cbc:PayableAmount`)).to.equal('1656.25');
    });

    it('copies only the first Note (BT-22)', () => {
      const xml = edited(invoice(), '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode><cbc:Note>first</cbc:Note><cbc:Note>second</cbc:Note>');
      expect(query(buildTdd(xml, HEADER)).all(`${DOC}/cbc:Note`)).to.deep.equal(['first']);
    });

    it('accepts a Peppol self-billing invoice (389) as the reported document', async () => {
      let xml = edited(invoice(), 'poacc:billing:3.0', 'poacc:selfbilling:3.0');
      xml = edited(xml, 'poacc:billing:01:1.0', 'poacc:selfbilling:01:1.0');
      xml = edited(xml, '<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>389<');
      const tdd = buildTdd(xml, HEADER);
      expect(query(tdd).s(`${DOC}/pxs:DocumentTypeCode`)).to.equal('389');
      expect(describeErrors((await tddValidator()).validate(tdd))).to.deep.equal([]);
    });
  });

  describe('documents a TDD cannot be built from (README §5.7)', () => {
    const missingCases: [string, (xml: string) => string, string][] = [
      ['no buyer name (BT-44)', (x) => edited(x, '<cbc:RegistrationName>Buyer Official Name</cbc:RegistrationName>', ''), 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName'],
      ['no seller endpoint (BT-34)', (x) => edited(x, '<cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>', ''), 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID'],
      ['a seller endpoint without scheme', (x) => edited(x, 'schemeID="0088">9482348239847239874', '>9482348239847239874'), 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID/@schemeID'],
      ['no document number', (x) => edited(x, '<cbc:ID>Snippet1</cbc:ID>', ''), 'cbc:ID'],
      ['no type code', (x) => edited(x, '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', ''), 'cbc:InvoiceTypeCode'],
      ['no issue date', (x) => edited(x, '<cbc:IssueDate>2017-11-13</cbc:IssueDate>', ''), 'cbc:IssueDate'],
      ['no currency', (x) => edited(x, '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', ''), 'cbc:DocumentCurrencyCode'],
      ['no VAT total', (x) => edited(x, /<cac:TaxTotal>[\s\S]*?<\/cac:TaxTotal>/, ''), "cac:TaxTotal[cbc:TaxAmount/@currencyID = 'EUR']"],
      [
        'a tax currency without its VAT total',
        (x) => edited(x, '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>SEK</cbc:TaxCurrencyCode>'),
        "cac:TaxTotal[cbc:TaxAmount/@currencyID = 'SEK']",
      ],
      ['no amount due', (x) => edited(x, '<cbc:PayableAmount currencyID="EUR">1656.25</cbc:PayableAmount>', ''), 'cac:LegalMonetaryTotal/cbc:PayableAmount'],
      ['no lines', (x) => edited(x, /<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, ''), 'cac:InvoiceLine'],
      ['a line without price', (x) => edited(x, /<cac:Price>\s*<cbc:PriceAmount currencyID="EUR">500<\/cbc:PriceAmount>\s*<\/cac:Price>/, ''), 'cac:InvoiceLine[2]/cac:Price'],
      ['a line without item name', (x) => edited(x, '<cbc:Name>item name 2</cbc:Name>', ''), 'cac:InvoiceLine[2]/cac:Item/cbc:Name'],
      ['a line without VAT category', (x) => edited(x, /<cac:ClassifiedTaxCategory>[\s\S]*?<\/cac:ClassifiedTaxCategory>/, ''), 'cac:InvoiceLine[1]/cac:Item/cac:ClassifiedTaxCategory'],
      ['a quantity without unit', (x) => edited(x, '<cbc:InvoicedQuantity unitCode="DAY">-3', '<cbc:InvoicedQuantity>-3'), 'cac:InvoiceLine[2]/cbc:InvoicedQuantity/@unitCode'],
      ['a line without net amount', (x) => edited(x, '<cbc:LineExtensionAmount currencyID="EUR">-1500</cbc:LineExtensionAmount>', ''), 'cac:InvoiceLine[2]/cbc:LineExtensionAmount'],
    ];
    for (const [what, edit, field] of missingCases) {
      it(`${what}: TDD-MISSING-FIELD ${field}`, () => {
        const err = buildError(edit(invoice()));
        expect([err.rule, err.field]).to.deep.equal(['TDD-MISSING-FIELD', field]);
        expect(err.message).to.match(/^A TDD cannot be built: .+ is missing/);
      });
    }

    it('unsafe, broken or non-UBL XML: the reader refusal as a TddBuildError', () => {
      expect(buildError('<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x "y">]><Invoice/>').rule).to.equal('XML-DOCTYPE');
      expect(buildError('<Invoice').rule).to.equal('XML-MALFORMED');
      expect(buildError(buildTdd(invoice(), HEADER)).rule).to.equal('XML-NOT-UBL');
    });
  });
});
