// Round trip: build → read → build gives the same document, and reading gives back the same totals.
import { expect } from 'chai';
import type { InvoiceContent, Party } from '../../commands/invoices/model.ts';
import { carriesVatIds } from '../../commands/invoices/rules.ts';
import { computeTotals, ZZZ_REASON, ZZZ_REASON_CODE } from '../../commands/invoices/totals.ts';
import { buildUbl, readUbl, UblReadError } from '../../src/modules/invoices/ubl/index.ts';
import { ZZZ, ZZZ_ALLOWANCE_REASON } from '../../src/modules/invoices/ubl/ubl-names.ts';
import { generateInvoice } from './support/generate.ts';
import { matrix, SEED } from './support/matrix.ts';

describe('UBL round trip (build → read → build)', () => {
  it('gives the same document and the same totals for every generated invoice and credit note', () => {
    const docs = matrix();
    for (const [index, content] of docs.entries()) {
      const where = `seed ${SEED} index ${index}`;
      const totals = computeTotals(content);
      const xml = buildUbl(content, totals);
      const read = readUbl(xml);
      expect(read.totals, `${where}: stated totals`).to.deep.equal(totals);
      expect(computeTotals(read.content), `${where}: recomputed totals`).to.deep.equal(totals);
      expect(buildUbl(read.content, read.totals), `${where}: rebuilt document`).to.equal(xml);
      expect(buildUbl(read.content, computeTotals(read.content)), `${where}: rebuilt from recomputed totals`).to.equal(xml);
    }
    console.log(`      UBL round trip: ${docs.length} documents, seed ${SEED}: all identical`);
  });

  it('reads back every field of the content, normalised as written', () => {
    const content = generateInvoice(SEED, 3);
    const read = readUbl(buildUbl(content, computeTotals(content))).content;
    const expected: InvoiceContent = {
      ...content,
      buyer_reference: content.buyer_reference ?? content.invoice_number,
      lines: content.lines.map((l) => ({
        ...l,
        quantity: String(Number(l.quantity)),
        unit_price: String(Number(l.unit_price)),
      })),
    };
    expect(read).to.deep.equal(expected);
  });

  it('keeps parties, dates, references and payment data', () => {
    for (const index of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const content = generateInvoice(SEED, index);
      const read = readUbl(buildUbl(content, computeTotals(content))).content;
      // a document not subject to VAT (category O) names no VAT identifier (BR-O-02), so none is read back
      const shown = (party: Party): Party => (carriesVatIds(content) ? party : { ...party, vat_id: '' });
      expect(read.supplier).to.deep.equal(shown(content.supplier));
      expect(read.buyer).to.deep.equal(shown(content.buyer));
      expect([read.invoice_number, read.invoice_type, read.issue_date, read.due_date, read.delivery_date]).to.deep.equal([
        content.invoice_number,
        content.invoice_type,
        content.issue_date,
        content.due_date,
        content.delivery_date,
      ]);
      expect([read.currency_code, read.supplier_iban, read.payment_means_code, read.variable_symbol]).to.deep.equal([
        content.currency_code,
        content.supplier_iban,
        content.payment_means_code,
        content.variable_symbol,
      ]);
      expect([read.note, read.order_reference, read.billing_reference]).to.deep.equal([
        content.note,
        content.order_reference,
        content.billing_reference,
      ]);
      expect(read.customer_id).to.equal(null);
    }
  });

  it('writes a ZZZ allowance without the code UNCL 5189 lacks, and knows it again by its text', () => {
    expect([ZZZ, ZZZ_ALLOWANCE_REASON]).to.deep.equal([ZZZ_REASON_CODE, ZZZ_REASON]);
    const content = findContent((t) => t.allowances_charges.some((ac) => !ac.charge));
    const xml = buildUbl(content, computeTotals(content));
    expect(xml).to.match(/<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>\s*<cbc:AllowanceChargeReason>Rounding correction</);
    expect(readUbl(xml).totals.zzz_correction_amount).to.equal(computeTotals(content).zzz_correction_amount);
  });

  it('refuses unsafe, broken and non-UBL XML with a rule', () => {
    const rule = (xml: string) => {
      try {
        readUbl(xml);
      } catch (err) {
        if (err instanceof UblReadError) return err.rule;
        throw err;
      }
      return 'read';
    };
    expect(rule('<!DOCTYPE a [<!ENTITY a "x">]><Invoice>&a;</Invoice>')).to.equal('XML-DOCTYPE');
    expect(rule('<Invoice')).to.equal('XML-MALFORMED');
    expect(rule('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')).to.equal('XML-NOT-UBL');
    const content = generateInvoice(SEED, 1);
    const xml = buildUbl(content, computeTotals(content));
    expect(rule(xml.replace(/(<cbc:PayableAmount[^>]*>)[^<]*/, '$1twelve'))).to.equal('UBL-BAD-NUMBER');
    expect(rule(xml.replace(/<cbc:ID>S<\/cbc:ID>/g, '<cbc:ID>X</cbc:ID>').replace(/<cbc:ID>(AE|K|Z|E)<\/cbc:ID>/g, '<cbc:ID>X</cbc:ID>'))).to.equal(
      'UBL-UNSUPPORTED',
    );
  });
});

function findContent(p: (t: ReturnType<typeof computeTotals>) => boolean): InvoiceContent {
  for (let i = 0; i < 500; i++) {
    const content = generateInvoice(SEED, i);
    if (p(computeTotals(content))) return content;
  }
  throw new Error('no generated invoice has that property');
}
