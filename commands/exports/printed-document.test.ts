import { expect } from 'chai';
import { content } from '../invoices/test-fixtures.ts';
import type { InvoiceContent } from '../invoices/model.ts';
import { computeTotals } from '../invoices/totals.ts';
import { formatAmount, formatDate, formatIban, formatQuantity, formatUnitPrice, printedDocument, type PrintableInvoice } from './printed-document.ts';

const NBSP = '\u00a0';
const printable = (c: InvoiceContent, rest: Partial<PrintableInvoice> = {}): PrintableInvoice => ({
  status: 'delivered', source: 'api', content: c, totals: computeTotals(c), credited_invoice: null, ...rest,
});
const fields = (list: { label: string; value: string }[]) => Object.fromEntries(list.map((f) => [f.label, f.value]));

describe('printed document', () => {
  it('titles by type: 380 Faktúra, 325 Proforma faktúra (not a tax document), 381 Dobropis', () => {
    expect(printedDocument(printable(content))).to.deep.include({ title: 'Faktúra', subtitle: null, number: '2026000001' });
    expect(printedDocument(printable({ ...content, invoice_type: '325' }))).to.deep.include({ title: 'Proforma faktúra', subtitle: 'Nie je daňový doklad' });
    expect(printedDocument(printable({ ...content, invoice_type: '381' })).title).to.equal('Dobropis');
  });

  it('an inbound copy says it was received over Peppol and carries no stamp', () => {
    const doc = printedDocument(printable(content, { source: 'peppol', status: 'delivered' }));
    expect(doc.subtitle).to.equal('Kópia dokladu prijatého cez Peppol');
    expect(doc.stamp).to.equal(null);
  });

  it('issue, delivery (the issue date when none is named) and due dates, as DD.MM.YYYY', () => {
    expect(fields(printedDocument(printable(content)).dates)).to.deep.equal({ 'Dátum vystavenia': '22.11.2026', 'Dátum dodania': '22.11.2026', 'Dátum splatnosti': '06.12.2026' });
    expect(fields(printedDocument(printable({ ...content, delivery_date: '2026-11-20', due_date: null })).dates)).to.deep.equal({ 'Dátum vystavenia': '22.11.2026', 'Dátum dodania': '20.11.2026' });
  });

  it('both parties with IČO, DIČ and IČ DPH each labelled, only the ones the party has', () => {
    const doc = printedDocument(printable({ ...content, buyer: { ...content.buyer, vat_id: '', ico: '12345678', dic: null } }));
    expect(doc.supplier.identifiers).to.deep.equal([{ label: 'IČO', value: '35757442' }, { label: 'DIČ', value: '2020273893' }, { label: 'IČ DPH', value: 'SK2020273893' }]);
    expect(doc.buyer.identifiers).to.deep.equal([{ label: 'IČO', value: '12345678' }]);
    expect(doc.supplier).to.deep.include({ heading: 'Dodávateľ', name: 'Dodávateľ s.r.o.', address: ['Hlavná 1', '811 01 Bratislava'] });
    expect(doc.buyer.heading).to.equal('Odberateľ');
  });

  it('payment: means, IBAN in groups of four, variable symbol, currency', () => {
    expect(fields(printedDocument(printable(content)).payment)).to.deep.equal({
      'Spôsob úhrady': 'Bankový prevod (SEPA)', IBAN: 'SK31 1200 0000 1987 4263 7541', 'Variabilný symbol': '2026000001', Mena: 'EUR',
    });
  });

  it('lines in Slovak units and numbers; VAT breakdown per rate; totals and the amount to pay', () => {
    const c: InvoiceContent = {
      ...content,
      lines: [
        { ...content.lines[0]!, quantity: '1.5', unit_price: '1000.0125', discount_percentage: '10' },
        { ...content.lines[0]!, line_number: 2, item_name: 'Kniha', unit_code: 'C62', quantity: '1', unit_price: '10', vat_rate: '5' },
      ],
    };
    const doc = printedDocument(printable(c));
    expect(doc.lines[0]).to.deep.include({ number: '1', quantity: '1,5', unit: 'hod', unit_price: `1${NBSP}000,0125`, discount: '150,00', vat_rate: `23${NBSP}%`, net: '1\u00a0350,02' });
    expect(doc.lines[1]).to.deep.include({ unit: 'ks', unit_price: '10,00', discount: '', vat_rate: `5${NBSP}%`, net: '10,00', gross: '10,50' });
    expect(doc.vat.map((v) => v.rate)).to.deep.equal([`23${NBSP}%`, `5${NBSP}%`]);
    expect(doc.vat[0]).to.deep.include({ base: `1${NBSP}350,02`, vat: '310,50', gross: `1${NBSP}660,52` });
    expect(fields(doc.totals)).to.deep.include({ 'Základ dane spolu': `1${NBSP}360,02${NBSP}EUR`, 'DPH spolu': `311,00${NBSP}EUR`, 'Celkom s DPH': `1${NBSP}671,02${NBSP}EUR` });
    expect(doc.payable).to.deep.equal({ label: 'Na úhradu', value: `1${NBSP}671,02${NBSP}EUR` });
  });

  it('the ZZZ correction is printed when present, and only then', () => {
    const tiny = { ...content.lines[0]!, quantity: '1', unit_price: '0.02', vat_rate: '23' };
    const c: InvoiceContent = { ...content, lines: [tiny, { ...tiny, line_number: 2 }] };
    const totals = computeTotals(c);
    expect(totals.zzz_correction_amount).not.to.equal('0.00');
    const zzz = printedDocument(printable(c)).totals.filter((t) => t.label.includes('ZZZ'));
    expect(zzz).to.deep.equal([{ label: `Korekcia zaokrúhlenia ZZZ (23${NBSP}%)`, value: `${totals.zzz_correction_amount.replace('.', ',')}${NBSP}EUR` }]);
    expect(printedDocument(printable(content)).totals.filter((t) => t.label.includes('ZZZ'))).to.deep.equal([]);
  });

  it('an exempt or reverse-charge row says so in words, with its exemption code', () => {
    const c: InvoiceContent = { ...content, lines: [{ ...content.lines[0]!, vat_rate: '0', vat_category_code: 'AE', vat_exemption_reason_code: 'VATEX-EU-AE' }] };
    const doc = printedDocument(printable(c));
    expect(doc.vat[0]!.rate).to.equal(`0${NBSP}% – prenesenie daňovej povinnosti (VATEX-EU-AE)`);
    expect(doc.lines[0]!.vat_rate).to.equal(`0${NBSP}% AE`);
  });

  it("a credit note: the credited invoice's number and date and the reason; its total is the credit note's sum", () => {
    const c: InvoiceContent = { ...content, invoice_type: '381', invoice_number: 'DOB-2026-1' };
    const doc = printedDocument(printable(c, { credited_invoice: { invoice_number: '2026000001', issue_date: '2026-11-22', reason: 'price_correction' } }));
    expect(doc.credit).to.deep.equal({
      heading: 'Dobropis k faktúre',
      fields: [{ label: 'Opravovaná faktúra č.', value: '2026000001' }, { label: 'Zo dňa', value: '22.11.2026' }, { label: 'Dôvod', value: 'Oprava ceny' }],
    });
    expect(doc.payable.label).to.equal('Suma dobropisu');
  });

  it("a received credit note names the invoice from its billing reference (no reason is known)", () => {
    const c: InvoiceContent = { ...content, invoice_type: '381', billing_reference: { invoice_number: 'F-77', issue_date: null } };
    expect(printedDocument(printable(c, { source: 'peppol' })).credit?.fields).to.deep.equal([{ label: 'Opravovaná faktúra č.', value: 'F-77' }]);
    expect(printedDocument(printable(content)).credit).to.equal(null);
  });

  it('a corrected invoice (384) is titled so and names the invoice it corrects', () => {
    const c: InvoiceContent = { ...content, invoice_type: '384', billing_reference: { invoice_number: '2026000001', issue_date: '2026-11-01' } };
    const doc = printedDocument(printable(c));
    expect(doc.credit).to.deep.equal({ heading: 'Oprava faktúry', fields: [{ label: 'Opravovaná faktúra č.', value: '2026000001' }, { label: 'Zo dňa', value: '01.11.2026' }] });
    expect(doc.payable.label).to.equal('Na úhradu');
  });

  it('a document not issued yet is stamped NÁVRH; a voided one STORNOVANÁ; an issued one nothing', () => {
    for (const status of ['draft', 'validated', 'pending_approval', 'approved']) expect(printedDocument(printable(content, { status })).stamp, status).to.equal('NÁVRH');
    expect(printedDocument(printable(content, { status: 'voided' })).stamp).to.equal('STORNOVANÁ');
    for (const status of ['queued', 'delivered', 'fs_acknowledged']) expect(printedDocument(printable(content, { status })).stamp, status).to.equal(null);
  });

  it('the note is printed as written (trimmed, line ends as LF); none gives null', () => {
    expect(printedDocument(printable({ ...content, note: '  Ďakujeme.\nDruhý riadok ' })).note).to.equal('Ďakujeme.\nDruhý riadok');
    expect(printedDocument(printable({ ...content, note: '  ' })).note).to.equal(null);
    expect(printedDocument(printable({ ...content, note: 'a\r\nb\rc\td' })).note).to.equal('a\nb\nc d');
  });

  it('numbers the Slovak way', () => {
    expect(formatAmount('-1234567.5')).to.equal(`-1${NBSP}234${NBSP}567,50`);
    expect(formatAmount('0')).to.equal('0,00');
    expect(formatQuantity('2.000')).to.equal('2');
    expect(formatUnitPrice('0.5')).to.equal('0,50');
    expect(formatDate('2026-03-05')).to.equal('05.03.2026');
    expect(formatIban('SK3112000000198742637541')).to.equal('SK31 1200 0000 1987 4263 7541');
  });
});
