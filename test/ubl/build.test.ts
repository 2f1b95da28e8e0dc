// Where the builder puts things, checked on the XML with plain XPath, and the proforma's Peppol limit.
import { expect } from 'chai';
import { parseTrusted } from '../../src/platform/xml/index.ts';
import type { CodeLists } from '../../commands/invoices/code-lists.ts';
import type { InvoiceContent, InvoiceLine } from '../../commands/invoices/model.ts';
import { checkInvoice } from '../../commands/invoices/rules.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { loadCodeLists } from '../../src/modules/invoices/code-lists-loader.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { createValidator, type Validator } from '../../src/platform/validation/index.ts';
import { ARTIFACTS, CACHE, needArtifacts } from '../validation/support/paths.ts';
import { generateInvoice } from './support/generate.ts';
import { SEED } from './support/matrix.ts';

const NSMAP = {
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

function built(content: InvoiceContent): { xml: string; s: (xpath: string) => string; n: (xpath: string) => number } {
  const xml = buildUbl(content, computeTotals(content));
  const doc = parseTrusted(xml);
  const s = (xpath: string) => String(doc.eval(`string(${xpath})`, NSMAP));
  const n = (xpath: string) => Number(doc.eval(`count(${xpath})`, NSMAP));
  return { xml, s, n };
}

function first(p: (c: InvoiceContent) => boolean): InvoiceContent {
  for (let i = 0; i < 500; i++) {
    const c = generateInvoice(SEED, i);
    if (p(c)) return c;
  }
  throw new Error('no generated document fits');
}

describe('UBL builder: mapping', () => {
  it('puts each Slovak identifier where the Peppol and Slovak rules look for it', () => {
    const content = first((c) => c.invoice_type === '380' && c.supplier.dic !== null);
    const { s } = built(content);
    const party = '/inv:Invoice/cac:AccountingSupplierParty/cac:Party';
    const [scheme, id] = (content.supplier.peppol_id ?? '').split(':');
    expect(s(`${party}/cbc:EndpointID/@schemeID`)).to.equal(scheme);
    expect(s(`${party}/cbc:EndpointID`)).to.equal(id);
    expect(s(`${party}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID`)).to.equal(content.supplier.vat_id);
    expect(s(`${party}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'TAX']/cbc:CompanyID`)).to.equal(content.supplier.dic);
    expect(s(`${party}/cac:PartyLegalEntity/cbc:CompanyID[@schemeID = '0158']`)).to.equal(content.supplier.ico);
    expect(s(`${party}/cac:PartyLegalEntity/cbc:RegistrationName`)).to.equal(content.supplier.name);
  });

  it('never emits an element without its namespace', () => {
    for (let i = 0; i < 30; i++) expect(built(generateInvoice(SEED, i)).xml).to.not.include('xmlns=""');
  });

  it('gives a credit note its due date in PaymentMeans and the credited invoice in BillingReference', () => {
    const content = first((c) => c.invoice_type === '381' && c.due_date !== null);
    const { s, n } = built(content);
    expect(n('/cn:CreditNote/cbc:DueDate')).to.equal(0);
    expect(s('/cn:CreditNote/cac:PaymentMeans/cbc:PaymentDueDate')).to.equal(content.due_date);
    expect(s('/cn:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).to.equal(content.billing_reference?.invoice_number);
    expect(n('/cn:CreditNote/cac:CreditNoteLine')).to.equal(content.lines.length);
  });

  it('states the delivery date and country of an intra-community supply without a delivery_date', () => {
    const content = first((c) => c.invoice_type === '380' && c.delivery_date === null && c.lines.some((l) => l.vat_category_code === 'K'));
    const { s, n } = built(content);
    expect(n('/inv:Invoice/cbc:TaxPointDate')).to.equal(0);
    expect(s('/inv:Invoice/cac:Delivery/cbc:ActualDeliveryDate')).to.equal(content.issue_date);
    expect(s('/inv:Invoice/cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode')).to.equal(
      content.buyer.country_code,
    );
  });

  it('writes delivery_date as TaxPointDate and ActualDeliveryDate, and the variable symbol as PaymentID', () => {
    const content = first((c) => c.delivery_date !== null && c.variable_symbol !== null && c.invoice_type === '380');
    const { s } = built(content);
    expect(s('/inv:Invoice/cbc:TaxPointDate')).to.equal(content.delivery_date);
    expect(s('/inv:Invoice/cac:Delivery/cbc:ActualDeliveryDate')).to.equal(content.delivery_date);
    expect(s('/inv:Invoice/cac:PaymentMeans/cbc:PaymentID')).to.equal(content.variable_symbol);
  });

  it('states a percentage discount with its base, so the percentage survives', () => {
    const content = first((c) => c.invoice_type === '380' && c.lines.some((l) => l.discount_percentage !== null));
    const line = content.lines.find((l) => l.discount_percentage !== null);
    const amounts = computeTotals(content).lines.find((l) => l.line_number === line?.line_number);
    const { s } = built(content);
    const ac = `/inv:Invoice/cac:InvoiceLine[cbc:ID = '${line?.line_number}']/cac:AllowanceCharge`;
    expect(s(`${ac}/cbc:MultiplierFactorNumeric`)).to.equal(String(Number(line?.discount_percentage)));
    expect(s(`${ac}/cbc:BaseAmount`)).to.equal(amounts?.line_gross_before_discount);
    expect(s(`${ac}/cbc:Amount`)).to.equal(amounts?.discount);
  });
});

describe('UBL builder: proforma (325)', function () {
  this.timeout(300_000);
  before(needArtifacts);
  let validator: Validator | undefined;
  before(async () => {
    validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 0 });
  });
  after(() => validator?.close());

  it('passes XSD, CEN and Slovak rules; Peppol profile 01 refuses its type code (P0100)', async () => {
    const content: InvoiceContent = { ...first((c) => c.invoice_type === '380' && c.lines.length < 10), invoice_type: '325' };
    const report = await validator?.validate(buildUbl(content, computeTotals(content)));
    expect([report?.xsd_valid, report?.slovak_valid]).to.deep.equal([true, true]);
    expect(report?.errors.map((e) => e.rule)).to.deep.equal(['PEPPOL-EN16931-P0100']);
  });
});

describe('UBL builder: not subject to VAT (category O)', () => {
  it('names neither party\'s VAT identifier (BR-O-02), keeps DIČ and IČO, and writes one O row without a rate', () => {
    const content = first((c) => c.invoice_type === '380' && c.lines.some((l) => l.vat_category_code === 'O') && c.buyer.vat_id !== '');
    const { s, n } = built(content);
    for (const [role, party] of [['AccountingSupplierParty', content.supplier], ['AccountingCustomerParty', content.buyer]] as const) {
      const p = `/inv:Invoice/cac:${role}/cac:Party`;
      expect(party.vat_id, role).to.not.equal('');
      expect(n(`${p}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']`), role).to.equal(0);
      expect(s(`${p}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'TAX']/cbc:CompanyID`), role).to.equal(party.dic);
      expect(s(`${p}/cac:PartyLegalEntity/cbc:CompanyID`), role).to.equal(party.ico);
    }
    expect(n('/inv:Invoice/cac:TaxTotal/cac:TaxSubtotal')).to.equal(1);
    expect(s('/inv:Invoice/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).to.equal('O');
    expect(s('/inv:Invoice/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).to.equal('VATEX-EU-O');
    expect(n('//cbc:Percent')).to.equal(0);
  });

  it('still names the VAT identifiers of a document without an O line', () => {
    const content = first((c) => c.invoice_type === '380' && c.lines.every((l) => l.vat_category_code === 'S') && c.buyer.vat_id !== '');
    const { s } = built(content);
    expect(s("/inv:Invoice/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID")).to.equal(
      content.supplier.vat_id,
    );
    expect(s("/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID")).to.equal(
      content.buyer.vat_id,
    );
  });
});

describe('UBL builder: what the create rules refuse is what the validator finds in the document', function () {
  this.timeout(600_000);
  before(needArtifacts);
  let validator: Validator | undefined;
  let lists: CodeLists | undefined;
  before(async () => {
    validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 0 });
    lists = await loadCodeLists(ARTIFACTS);
  });
  after(() => validator?.close());

  // a small domestic invoice between VAT-registered Slovak companies, its lines replaced per case
  const base = first(
    (c) => c.invoice_type === '380' && c.currency_code === 'EUR' && c.buyer.vat_id !== '' && c.lines.length <= 4 && c.lines.every((l) => l.vat_category_code === 'S'),
  );
  const lineOf = (n: number, category: InvoiceLine['vat_category_code'], reason: string | null, rate = '0'): InvoiceLine => ({
    ...(base.lines[0] as InvoiceLine),
    line_number: n,
    vat_category_code: category,
    vat_rate: rate,
    vat_exemption_reason_code: reason,
  });
  const withLines = (...lines: InvoiceLine[]): InvoiceContent => ({ ...base, lines });
  const cases: { rule: string; refused: InvoiceContent; corrected: InvoiceContent }[] = [
    {
      rule: 'BR-E-01',
      refused: withLines(lineOf(1, 'E', 'VATEX-EU-132'), lineOf(2, 'E', 'VATEX-EU-143')),
      corrected: withLines(lineOf(1, 'E', 'VATEX-EU-132'), lineOf(2, 'E', 'VATEX-EU-132')),
    },
    {
      rule: 'BR-Z-01',
      refused: withLines(lineOf(1, 'Z', null), lineOf(2, 'Z', null, '5')),
      corrected: withLines(lineOf(1, 'Z', null), lineOf(2, 'Z', null)),
    },
    {
      rule: 'BR-AE-01',
      refused: withLines(lineOf(1, 'AE', 'VATEX-EU-AE'), lineOf(2, 'AE', 'VATEX-EU-132')),
      corrected: withLines(lineOf(1, 'AE', 'VATEX-EU-AE'), lineOf(2, 'AE', 'vatex-eu-ae')),
    },
    {
      rule: 'BR-IC-01',
      refused: withLines(lineOf(1, 'K', 'VATEX-EU-IC'), lineOf(2, 'K', 'VATEX-EU-132')),
      corrected: withLines(lineOf(1, 'K', 'VATEX-EU-IC'), lineOf(2, 'K', 'VATEX-EU-IC')),
    },
    {
      rule: 'BR-G-01',
      refused: withLines(lineOf(1, 'G', 'VATEX-EU-G'), lineOf(2, 'G', 'VATEX-EU-132')),
      corrected: withLines(lineOf(1, 'G', 'VATEX-EU-G'), lineOf(2, 'G', 'VATEX-EU-G')),
    },
    {
      rule: 'BR-O-01',
      refused: withLines(lineOf(1, 'O', 'VATEX-EU-O'), lineOf(2, 'O', 'VATEX-EU-132')),
      corrected: withLines(lineOf(1, 'O', 'VATEX-EU-O'), lineOf(2, 'O', 'VATEX-EU-O')),
    },
    {
      rule: 'BR-O-11',
      refused: withLines(lineOf(1, 'O', 'VATEX-EU-O'), lineOf(2, 'S', null, '23')),
      corrected: withLines(lineOf(1, 'O', 'VATEX-EU-O'), lineOf(2, 'O', 'VATEX-EU-O')),
    },
    {
      rule: 'BR-E-02',
      refused: { ...withLines(lineOf(1, 'E', 'VATEX-EU-132')), supplier: { ...base.supplier, vat_id: '', dic: null } },
      corrected: { ...withLines(lineOf(1, 'E', 'VATEX-EU-132')), supplier: { ...base.supplier, vat_id: '' } },
    },
    {
      rule: 'BR-G-02',
      refused: { ...withLines(lineOf(1, 'G', 'VATEX-EU-G')), supplier: { ...base.supplier, vat_id: '' } },
      corrected: withLines(lineOf(1, 'G', 'VATEX-EU-G')),
    },
    {
      rule: 'BR-IC-02',
      refused: { ...withLines(lineOf(1, 'K', 'VATEX-EU-IC')), buyer: { ...base.buyer, vat_id: '' } },
      corrected: withLines(lineOf(1, 'K', 'VATEX-EU-IC')),
    },
    {
      rule: 'BR-AE-02',
      refused: { ...withLines(lineOf(1, 'AE', 'VATEX-EU-AE')), buyer: { ...base.buyer, vat_id: '', ico: null } },
      corrected: { ...withLines(lineOf(1, 'AE', 'VATEX-EU-AE')), buyer: { ...base.buyer, vat_id: '' } },
    },
    {
      rule: 'PEPPOL-EN16931-P0107',
      refused: withLines(lineOf(1, 'E', 'VATEX-EU-AE')),
      corrected: withLines(lineOf(1, 'E', 'VATEX-EU-132')),
    },
    {
      rule: 'BR-CO-26',
      refused: { ...withLines(lineOf(1, 'O', 'VATEX-EU-O')), supplier: { ...base.supplier, ico: null } },
      corrected: withLines(lineOf(1, 'O', 'VATEX-EU-O')),
    },
  ];
  for (const { rule, refused, corrected } of cases) {
    it(`${rule}: refused at create and failed by the validator; corrected, accepted and valid`, async () => {
      const v = validator;
      if (!v || !lists) throw new Error('validator not started');
      const fatal = (c: InvoiceContent) => checkInvoice(c, lists as CodeLists).filter((f) => f.severity === 'fatal').map((f) => f.rule);
      const invalid = async (c: InvoiceContent) => (await v.validate(buildUbl(c, computeTotals(c)))).errors.map((e) => e.rule);
      expect(fatal(refused)).to.include(rule);
      expect(await invalid(refused)).to.include(rule);
      expect(fatal(corrected)).to.deep.equal([]);
      expect(await invalid(corrected)).to.deep.equal([]);
    });
  }
});
