// The TDD validator: the official examples, broken TDDs giving the expected rules, refusals, a missing bundle.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { buildTdd, createTddValidator, type TddValidationReport } from '../../src/modules/delivery/fs/tax-data-document/index.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { generateInvoice } from '../ubl/support/generate.ts';
import { SEED } from '../ubl/support/matrix.ts';
import { CACHE } from '../validation/support/paths.ts';
import { EXAMPLES, needTddArtifacts, read, TESTFILES } from './support/paths.ts';
import { slovakHeader } from './support/headers.ts';
import { describeErrors, tddValidator } from './support/validator.ts';

/** README §4: these two fail the XSD (cac:TaxTotal without cbc:TaxAmount); the other 16 pass it. */
const XSD_INVALID_EXAMPLES = ['WithoutTaxes-example.xml', 'SB-WithoutTaxes-example.xml'];

const fatal = (report: TddValidationReport, rule: string) => report.errors.filter((e) => e.rule === rule);
const validatorReport = async (xml: string) => (await tddValidator()).validate(xml);

describe('TDD: validator', function () {
  this.timeout(300_000);
  before(needTddArtifacts);

  describe('the official example TDDs', () => {
    const files = () => fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.xml'));

    it('has the 18 examples README §2 lists', () => {
      expect(files()).to.have.length(18);
    });

    it('passes every example README calls XSD-valid, with no fatal finding of any rule set', async () => {
      const validator = await tddValidator();
      const valid = files().filter((f) => !XSD_INVALID_EXAMPLES.includes(f));
      expect(valid).to.have.length(16);
      for (const file of valid) {
        const report = validator.validate(read(EXAMPLES, file));
        expect(describeErrors(report), file).to.deep.equal([]);
        expect(report.valid, file).to.equal(true);
      }
    });

    it('fails WithoutTaxes-example on the XSD only, as README says (TaxTotal without TaxAmount)', async () => {
      const validator = await tddValidator();
      for (const file of XSD_INVALID_EXAMPLES) {
        const report = validator.validate(read(EXAMPLES, file));
        expect(report.valid, file).to.equal(false);
        expect(report.errors.map((e) => e.source), file).to.deep.equal(['xsd']);
        expect(report.errors[0]?.message, file).to.match(/TaxSubtotal.*not expected.*TaxAmount/);
      }
    });
  });

  describe('broken TDDs', () => {
    // built from an official invoice with a Slovak header, then broken in one place
    const good = () => buildTdd(read(TESTFILES, 'invoice/good/base-example.xml'), slovakHeader('C2', '0088:9482348239847239874'));
    const broken = (from: string | RegExp, to: string): string => {
      const xml = good();
      const out = xml.replace(from, to);
      if (out === xml) throw new Error(`test fixture: ${String(from)} not found`);
      return out;
    };
    const check = async (xml: string) => (await tddValidator()).validate(xml);

    it('the unbroken TDD is valid', async () => {
      const report = await check(good());
      expect(describeErrors(report)).to.deep.equal([]);
    });

    it('a ReportingParty without its endpoint: ibr-tdd-15 (the XSD allows an empty party)', async () => {
      const report = await check(broken(/<pxs:ReportingParty>[\s\S]*?<\/pxs:ReportingParty>/, '<pxs:ReportingParty/>'));
      expect(fatal(report, 'ibr-tdd-15')).to.have.length(1);
      expect(fatal(report, 'ibr-tdd-15')[0]).to.include({ source: 'tdd', location: '/pxs:TaxData[1]/pxs:ReportingParty[1]' });
      expect(report.valid).to.equal(false);
    });

    it('no ReportingParty at all: only the XSD notices (no ibr-tdd rule asks for the element)', async () => {
      const report = await check(broken(/<pxs:ReportingParty>[\s\S]*?<\/pxs:ReportingParty>\s*/, ''));
      expect(report.errors.map((e) => e.source)).to.deep.equal(['xsd']);
      expect(report.errors[0]?.message).to.match(/ReceivingParty.*not expected.*ReportingParty/);
    });

    it('a ReportingParty scheme that is not four digits: ibr-tdd-17', async () => {
      const report = await check(broken('schemeID="0088">9482348239847239874</cbc:EndpointID>\n  </pxs:ReportingParty>', 'schemeID="GLN">9482348239847239874</cbc:EndpointID>\n  </pxs:ReportingParty>'));
      expect(fatal(report, 'ibr-tdd-17')).to.have.length(1);
    });

    it('a receiving party under 0088 instead of the SPID scheme 0242: ibr-tdd-20', async () => {
      const xml = buildTdd(read(TESTFILES, 'invoice/good/base-example.xml'), slovakHeader('C2', '0088:9482348239847239874', { receivingParty: '0088:7300010000001' }));
      const report = await check(xml);
      expect(fatal(report, 'ibr-tdd-20').map((f) => f.location)).to.deep.equal(['/pxs:TaxData[1]/pxs:ReceivingParty[1]']);
    });

    it('a reporter representative under another scheme: ibr-tdd-23', async () => {
      const report = await check(broken('<cbc:ID schemeID="0242">PSK000000</cbc:ID>', '<cbc:ID schemeID="0088">PSK000000</cbc:ID>'));
      expect(fatal(report, 'ibr-tdd-23')).to.have.length(1);
    });

    it('a TDD number (TaxData/cbc:ID), which the XSD allows: ibr-tdd-00', async () => {
      const report = await check(broken('</cbc:ProfileID>\n  <cbc:UUID>', '</cbc:ProfileID>\n  <cbc:ID>1</cbc:ID>\n  <cbc:UUID>'));
      expect(report.errors.map((e) => e.rule)).to.deep.equal(['ibr-tdd-00']);
    });

    it('an issue date with a zone: ibr-tdd-04; codes outside the lists: ibr-tdd-06, -08, -09', async () => {
      let xml = broken('<cbc:IssueDate>2026-11-23</cbc:IssueDate>', '<cbc:IssueDate>2026-11-23Z</cbc:IssueDate>');
      xml = xml.replace('<pxs:TaxDataTypeCode>S<', '<pxs:TaxDataTypeCode>X<').replace('<pxs:DocumentScope>D<', '<pxs:DocumentScope>EU<').replace('<pxs:ReporterRole>C2<', '<pxs:ReporterRole>C4<');
      const report = await check(xml);
      const tddRules = report.errors.filter((e) => e.source === 'tdd').map((e) => e.rule);
      expect(tddRules.sort()).to.deep.equal(['ibr-tdd-04', 'ibr-tdd-06', 'ibr-tdd-08', 'ibr-tdd-09']);
      // the TDD-adapted Peppol rules check the date format too
      expect(report.errors.map((e) => e.rule)).to.include('PEPPOL-EN16931-F001');
    });

    it('ItemClassificationCodes with listVersionID: ibr-tdd-79 on both lines', async () => {
      const report = await check(broken(/listID="SRV">/g, 'listID="SRV" listVersionID="1.0">'));
      expect(fatal(report, 'ibr-tdd-79')).to.have.length(2);
    });

    it('a wrong amount due: BR-CO-16 of the TDD-adapted CEN rules', async () => {
      const report = await check(broken('<cbc:PayableAmount currencyID="EUR">1656.25<', '<cbc:PayableAmount currencyID="EUR">1656.26<'));
      expect(report.errors.map((e) => `${e.source} ${e.rule}`)).to.deep.equal(['tdd-cen BR-CO-16']);
    });

    it('a reported document that is not a Peppol billing document: PEPPOL-EN16931-R007 of the TDD-adapted Peppol rules', async () => {
      const report = await check(broken('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'urn:example:profile'));
      expect(report.errors.map((e) => `${e.source} ${e.rule}`)).to.include('tdd-peppol PEPPOL-EN16931-R007');
    });
  });

  describe('an official contradiction', () => {
    it('intra-community supply (K): BR-IC-12 wants the deliver-to country that ibr-tdd-85 forbids', async () => {
      const content = generateInvoice(SEED, 3);
      expect(content.lines.some((l) => l.vat_category_code === 'K')).to.equal(true);
      const tdd = buildTdd(buildUbl(content, computeTotals(content)), slovakHeader('C2', content.supplier.peppol_id ?? '', { documentScope: 'IC' }));
      const rules = (xml: string) => validatorReport(xml).then((r) => r.errors.map((e) => `${e.source} ${e.rule}`));
      // as built (README §5.3: Delivery carries only the date)
      expect(await rules(tdd)).to.deep.equal(['tdd-cen BR-IC-12']);
      // with the country BR-IC-12 asks for
      const country = '<cac:DeliveryLocation><cac:Address><cac:Country><cbc:IdentificationCode>CZ</cbc:IdentificationCode></cac:Country></cac:Address></cac:DeliveryLocation>';
      const withCountry = tdd.replace(/(<cbc:ActualDeliveryDate>[^<]*<\/cbc:ActualDeliveryDate>)/, `$1${country}`);
      expect(withCountry).to.not.equal(tdd);
      expect(await rules(withCountry)).to.deep.equal(['tdd ibr-tdd-85']);
    });
  });

  describe('refusals', () => {
    it('an invoice is not a TDD', async () => {
      const report = (await tddValidator()).validate(read(TESTFILES, 'invoice/good/base-example.xml'));
      expect(report.errors.map((e) => e.rule)).to.deep.equal(['XML-NOT-TDD']);
      expect(report.valid).to.equal(false);
    });

    it('a DOCTYPE (entities) is refused before parsing; broken XML is a finding', async () => {
      const validator = await tddValidator();
      const doctype = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><pxs:TaxData xmlns:pxs="urn:peppol:schema:sk-taxdata:1.0">&a;</pxs:TaxData>';
      expect(validator.validate(doctype).errors.map((e) => e.rule)).to.deep.equal(['XML-DOCTYPE']);
      expect(validator.validate('<pxs:TaxData').errors.map((e) => e.rule)).to.deep.equal(['XML-MALFORMED']);
    });
  });

  describe('without the bundle', () => {
    it('says which files are missing and never reports a TDD valid', async () => {
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tdd-artifacts-'));
      try {
        const validator = await createTddValidator({ artifactsDir: empty, cacheDir: CACHE });
        expect(validator.available).to.equal(false);
        const xml = buildTdd(read(TESTFILES, 'invoice/good/base-example.xml'), slovakHeader('C2', '0088:9482348239847239874'));
        const report = validator.validate(xml);
        expect(report).to.include({ valid: null, available: false });
        expect(report.errors).to.deep.equal([]);
        expect(report.warnings.map((w) => `${w.source} ${w.rule}`)).to.deep.equal([
          'xsd VALIDATION-UNAVAILABLE',
          'tdd VALIDATION-UNAVAILABLE',
          'tdd-cen VALIDATION-UNAVAILABLE',
          'tdd-peppol VALIDATION-UNAVAILABLE',
        ]);
        expect(report.warnings[0]?.message).to.contain('Peppol-Slovak Republic-TDD.xsd');
        // a document known to be bad is still false
        expect(validator.validate('<x').valid).to.equal(false);
        validator.close();
      } finally {
        fs.rmSync(empty, { recursive: true, force: true });
      }
    });
  });
});
