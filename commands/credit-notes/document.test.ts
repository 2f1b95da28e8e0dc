import { expect } from 'chai';
import fc from 'fast-check';
import { invoiceLineId } from '../invoices/line-id.ts';
import type { InvoiceLine } from '../invoices/model.ts';
import { Dec } from '../invoices/money.ts';
import type { KnownInvoice } from '../invoices/state.ts';
import { creditNotesOf, stepArb } from './document-arbitraries.ts';
import { expectDocumentOfRows } from './document-checks.ts';
import { creditNoteDocument, type CreditNoteHeader } from './document.ts';
import type { CreditNoteRequest, CreditRow } from './model.ts';
import { credit, fullReversal, issued, line, partial, returned, rowsAfter } from './test-fixtures.ts';

const id = (n: number) => invoiceLineId('inv-1', n);
const header = (reason: CreditNoteHeader['reason'], note: string | null = null): CreditNoteHeader => ({ credit_note_number: 'DOB-2026-7', issue_date: '2026-12-01', reason, note });

/** The document of `request` made after `earlier`, checked to be exactly its rows. */
function documentAfter(invoice: KnownInvoice, earlier: CreditNoteRequest[], request: CreditNoteRequest, note: string | null = null) {
  const rows = rowsAfter(invoice, earlier, request);
  const document = creditNoteDocument(invoice, rows, header(request.reason, note));
  expectDocumentOfRows(document, rows);
  return { rows, ...document };
}

const row = (fields: Partial<CreditRow>): CreditRow => ({
  kind: 'amount', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, source_line_id: null, quantity: null, base: '10.00', vat: '2.30', gross: '12.30', ...fields,
});

describe('credit-note document: header', () => {
  const invoice = issued([line(1, { quantity: '2', unit_price: '50.00' })]);

  it('is a 381 under its own number and date, referring to the invoice, with the invoice\'s parties and payment', () => {
    const { content } = documentAfter(invoice, [], fullReversal);
    const source = invoice.content;
    expect(content).to.deep.include({
      invoice_number: 'DOB-2026-7', invoice_type: '381', issue_date: '2026-12-01', due_date: null,
      billing_reference: { invoice_number: '2026000001', issue_date: '2026-11-22' },
      supplier: source.supplier, buyer: source.buyer, customer_id: source.customer_id, currency_code: 'EUR',
      supplier_iban: source.supplier_iban, payment_means_code: '30', variable_symbol: '2026000001', buyer_reference: '2026000001', order_reference: null,
    });
  });

  it('states the supply it corrects: the invoice\'s delivery date, else its issue date; none when that is the credit note\'s date', () => {
    expect(creditNoteDocument(invoice, rowsAfter(invoice, [], fullReversal), header('full_reversal')).content.delivery_date).to.equal('2026-11-22');
    const delivered = issued(invoice.content.lines, { content: { ...invoice.content, delivery_date: '2026-11-15' } });
    expect(creditNoteDocument(delivered, rowsAfter(delivered, [], fullReversal), header('full_reversal')).content.delivery_date).to.equal('2026-11-15');
    const sameDay = { ...header('full_reversal'), issue_date: '2026-11-22' };
    expect(creditNoteDocument(invoice, rowsAfter(invoice, [], fullReversal), sameDay).content.delivery_date).to.equal(null);
  });

  it('rule 1: the note is the reason\'s text and the invoice, with the request\'s note appended', () => {
    const partialNote = documentAfter(invoice, [], partial({ vat_rate: '23', gross: '12.30' }), '  Reklamácia č. 42 ').content.note;
    expect(partialNote).to.equal('Dobropis – čiastočné zníženie – faktúra č. 2026000001 zo dňa 22.11.2026\nReklamácia č. 42');
    expect(documentAfter(invoice, [], fullReversal, '   ').content.note).to.equal('Storno faktúry – faktúra č. 2026000001 zo dňa 22.11.2026');
    const returnNote = documentAfter(invoice, [], returned({ source_line_id: id(1), quantity: '1' })).content.note;
    expect(returnNote).to.equal('Vrátenie tovaru – faktúra č. 2026000001 zo dňa 22.11.2026');
    const price = documentAfter(invoice, [], { reason: 'price_correction', amounts: [{ vat_rate: '23', gross: '1.23' }] }).content.note;
    expect(price).to.equal('Oprava ceny – faktúra č. 2026000001 zo dňa 22.11.2026');
  });
});

describe('credit-note document: lines by row kind', () => {
  const invoice = issued([
    line(1, { quantity: '2', unit_code: 'HUR', unit_price: '50.00', item_name: 'Konzultácia' }),
    line(2, { quantity: '3', unit_price: '3.33', discount_percentage: '5', item_name: 'Papier' }),
    line(3, { quantity: '1', unit_price: '10.00', vat_rate: '5', discount_amount: '1.00', item_name: 'Kniha' }),
    line(4, { quantity: '4', unit_price: '25.00', vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132', item_name: 'Školenie' }),
  ]);

  it('copy: a full reversal of an uncredited invoice repeats its lines and comes to its totals', () => {
    const { content, totals } = documentAfter(invoice, [], fullReversal);
    expect(content.lines).to.deep.equal(invoice.content.lines);
    const { lines, total_net, total_vat, total_gross, vat_breakdown, allowances_charges } = invoice.totals;
    expect(totals).to.deep.include({ lines, total_net, total_vat, total_gross, vat_breakdown, allowances_charges });
  });

  it('copy with rounding rows: the bucket\'s rounding part becomes the same ZZZ correction the invoice has, no line', () => {
    // two lines of 0.02 at 19 %: 0.00 VAT per line, 0.01 per bucket; the invoice reconciles with a ZZZ allowance of 0.01
    const zzz = issued([...invoice.content.lines, line(5, { unit_price: '0.02', vat_rate: '19' }), line(6, { unit_price: '0.02', vat_rate: '19' })]);
    const { rows, content, totals } = documentAfter(zzz, [], fullReversal);
    expect(rows.filter((r) => r.kind === 'rounding')).to.have.length(1);
    expect(content.lines).to.have.length(6);
    expect(totals.allowances_charges).to.deep.equal(zzz.totals.allowances_charges);
    expect(totals.vat_breakdown).to.deep.equal(zzz.totals.vat_breakdown);
    expect([totals.total_net, totals.total_vat, totals.total_gross]).to.deep.equal([zzz.totals.total_net, zzz.totals.total_vat, zzz.totals.total_gross]);
  });

  it('return: the line\'s item at its own price and rate, for the returned quantity', () => {
    const { content, totals } = documentAfter(invoice, [], returned({ source_line_id: id(1), quantity: '0.5' }));
    expect(content.lines).to.deep.equal([{ ...invoice.content.lines[0], line_number: 1, quantity: '0.5' }]);
    expect(totals.lines[0]).to.deep.include({ line_net: '25.00', line_vat: '5.75', line_gross_amount: '30.75' });
  });

  it('return of a discounted row in pieces: each line comes to exactly its row, keeping the percentage where it lands', () => {
    // 3 × 3.33 less 5 %: line_net 9.49, line_vat 2.18, credited 3.16/0.73, 3.17/0.72, 3.16/0.73
    const one = returned({ source_line_id: id(2), quantity: '1' });
    const pieces = [0, 1, 2].map((n) => documentAfter(invoice, Array<CreditNoteRequest>(n).fill(one), one));
    expect(pieces.map((p) => [p.content.lines[0]!.discount_percentage, p.content.lines[0]!.discount_amount])).to.deep.equal([['5', null], [null, '0.16'], ['5', null]]);
    expect(pieces.map((p) => [p.totals.lines[0]!.line_net, p.totals.vat_breakdown[0]!.taxable_amount, p.totals.vat_breakdown[0]!.tax_amount])).to.deep.equal([
      ['3.16', '3.16', '0.73'],
      // 0.72, not round(3.17 × 23 %) = 0.73: the VAT the row credits, within BR-CO-17's tolerance
      ['3.17', '3.17', '0.72'],
      ['3.16', '3.16', '0.73'],
    ]);
    expect(pieces.every((p) => p.totals.allowances_charges.length === 0)).to.equal(true);
  });

  it('return of a row with an amount discount restates it for the part returned', () => {
    const { content, totals } = documentAfter(invoice, [], returned({ source_line_id: id(3), quantity: '0.4' }));
    // 10.00 less 1.00 = 9.00; 0.4 of it is 3.60: 0.4 × 10.00 = 4.00 less 0.40
    expect(content.lines[0]).to.deep.include({ quantity: '0.4', unit_price: '10.00', discount_amount: '0.40', discount_percentage: null });
    expect(totals.lines[0]).to.deep.include({ line_gross_before_discount: '4.00', discount: '0.40', line_net: '3.60' });
  });

  it('return whose share is above quantity × price: the line stays undiscounted and a ZZZ charge carries the cent', () => {
    // 3 × 0.3333 = 1.00; one back credits 0.33, the next 0.34 (rounded on the cumulative 2/3), above round(0.3333) = 0.33
    const thirds = issued([line(1, { quantity: '3', unit_price: '0.3333', vat_rate: '19' })]);
    const one = returned({ source_line_id: id(1), quantity: '1' });
    const { rows, content, totals } = documentAfter(thirds, [one], one);
    expect(rows[0]).to.deep.include({ base: '0.34', vat: '0.07' });
    expect(content.lines[0]).to.deep.include({ quantity: '1', unit_price: '0.3333', discount_percentage: null, discount_amount: null });
    expect(totals.lines[0]!.line_net).to.equal('0.33');
    expect(totals.allowances_charges).to.deep.equal([
      { charge: true, reason_code: 'ZZZ', reason: 'Rounding correction', amount: '0.01', vat_category_code: 'S', vat_rate: '19', vat_exemption_reason_code: null },
    ]);
    expect(totals.vat_breakdown[0]).to.deep.include({ taxable_amount: '0.34', tax_amount: '0.07' });
  });

  it('amount: one line per rate, quantity 1 at the row\'s base, named by the reason and bucket', () => {
    const amounts = [{ vat_rate: '23', gross: '24.60' }, { vat_rate: '5', gross: '2.10' }, { vat_rate: '0', vat_category_code: 'E' as const, gross: '50.00' }];
    const partialCredit = documentAfter(invoice, [], partial(...amounts));
    expect(partialCredit.content.lines.map((l) => [l.line_number, l.item_name, l.quantity, l.unit_code, l.unit_price, l.vat_rate, l.vat_category_code, l.vat_exemption_reason_code])).to.deep.equal([
      [1, 'Dobropis – čiastočné zníženie (DPH 23 %)', '1', 'C62', '20.00', '23', 'S', null],
      [2, 'Dobropis – čiastočné zníženie (DPH 5 %)', '1', 'C62', '2.00', '5', 'S', null],
      [3, 'Dobropis – čiastočné zníženie (oslobodené od DPH)', '1', 'C62', '50.00', '0', 'E', 'VATEX-EU-132'],
    ]);
    const correction = documentAfter(invoice, [], { reason: 'price_correction', amounts });
    expect(correction.content.lines.map((l) => l.item_name)).to.deep.equal(['Oprava ceny (DPH 23 %)', 'Oprava ceny (DPH 5 %)', 'Oprava ceny (oslobodené od DPH)']);
  });

  it('amount: the split\'s VAT is carried as it is, not recomputed from the base', () => {
    // rule 5 may credit a VAT a cent off round(base × rate) to stay within what is left
    const rows = [row({ base: '10.00', vat: '2.31', gross: '12.31' })];
    const document = creditNoteDocument(invoice, rows, header('partial_credit'));
    expectDocumentOfRows(document, rows);
    expect(document.totals.vat_breakdown).to.deep.equal([{ vat_category_code: 'S', vat_rate: '23', vat_exemption_reason_code: null, taxable_amount: '10.00', tax_amount: '2.31' }]);
    expect(document.totals.lines[0]).to.deep.include({ line_net: '10.00', line_vat: '2.31', line_gross_amount: '12.31' });
  });

  it('rest: a full reversal after earlier credit notes has one line per bucket for what is left', () => {
    const { rows, content } = documentAfter(invoice, [partial({ vat_rate: '23', gross: '100.00' }), returned({ source_line_id: id(3), quantity: '1' })], fullReversal);
    expect(rows.map((r) => r.kind)).to.deep.equal(['rest', 'rest']);
    expect(content.lines.map((l) => [l.item_name, l.quantity, l.unit_price])).to.deep.equal([
      ['Storno faktúry – zostatok (DPH 23 %)', '1', String(rows[0]!.base)],
      ['Storno faktúry – zostatok (oslobodené od DPH)', '1', '100.00'],
    ]);
  });

  it('rest of a negative bucket: quantity −1 at a positive price (BR-27)', () => {
    const negative = issued([line(1, { quantity: '5' }), line(2, { quantity: '-1', unit_price: '10.00', vat_rate: '5' })]);
    const { rows, content } = documentAfter(negative, [partial({ vat_rate: '23', gross: '12.30' })], fullReversal);
    expect(rows.find((r) => r.vat_rate === '5')).to.deep.include({ base: '-10.00', vat: '-0.50' });
    expect(content.lines.find((l) => l.vat_rate === '5')).to.deep.include({ quantity: '-1', unit_price: '10.00' });
  });
});

describe('credit-note document: totals are the rows', () => {
  const invoice = issued([line(1, { quantity: '3', unit_price: '33.33' }), line(2, { quantity: '7', unit_price: '1.11', vat_rate: '19' })]);

  it('sums every bucket and the document from the rows, whatever the mix of kinds', () => {
    const { notes } = credit(invoice, returned({ source_line_id: id(1), quantity: '1' }), partial({ vat_rate: '19', gross: '3.33' }), returned({ source_line_id: id(1), quantity: '2' }), fullReversal);
    for (const note of notes) expectDocumentOfRows(creditNoteDocument(invoice, note.rows, header(note.reason)), note.rows);
  });

  it('refuses rows the invoice cannot have: an unknown line, a bucket it lacks, nothing but rounding, VAT a whole unit off', () => {
    const build = (rows: CreditRow[]) => () => creditNoteDocument(invoice, rows, header('returned_goods'));
    expect(build([row({ kind: 'return', source_line_id: invoiceLineId('other', 1), quantity: '1' })])).to.throw(RangeError, /lacks/);
    expect(build([row({ vat_rate: '5', base: '1.00', vat: '0.05', gross: '1.05' })])).to.throw(RangeError, /lacks/);
    expect(build([row({ kind: 'rounding', base: '-0.01', vat: '0.01', gross: '0.00' })])).to.throw(RangeError, /at least one row/);
    expect(build([row({ base: '10.00', vat: '3.30', gross: '13.30' })])).to.throw(RangeError, /BR-CO-17/);
    expect(build([row({ base: '10.00', vat: '2.30', gross: '12.31' })])).to.throw(RangeError, /base \+ vat/);
  });
});

describe('credit-note document, property-based (fast-check)', function () {
  this.timeout(120_000);
  const VAT = [
    { vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null },
    { vat_rate: '23.00', vat_category_code: 'S', vat_exemption_reason_code: null },
    { vat_rate: '19', vat_category_code: 'S', vat_exemption_reason_code: null },
    { vat_rate: '5', vat_category_code: 'S', vat_exemption_reason_code: null },
    { vat_rate: '0', vat_category_code: 'Z', vat_exemption_reason_code: null },
    { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'vatex-eu-132' },
  ] as const;
  const lineArb = fc.record({
    quantity: fc.oneof(fc.integer({ min: 1, max: 50 }).map(String), fc.integer({ min: 1, max: 99_999 }).map((q) => new Dec(q).dividedBy(1000).toString())),
    price: fc.oneof(fc.integer({ min: 0, max: 100_000 }).map((c) => new Dec(c).dividedBy(100)), fc.integer({ min: 0, max: 9_999_999 }).map((p) => new Dec(p).dividedBy(10_000))),
    vat: fc.constantFrom(...VAT),
    discount: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 10_000 }).map((p) => ({ percentage: new Dec(p).dividedBy(100).toString() })), fc.integer({ min: 0, max: 1000 }).map((p) => ({ share: p }))),
  }).map(({ quantity, price, vat, discount }) => (n: number): InvoiceLine => line(n, {
    quantity, unit_price: price.toString(), ...vat,
    discount_percentage: discount && 'percentage' in discount ? discount.percentage : null,
    discount_amount: discount && 'share' in discount ? new Dec(quantity).times(price).toDecimalPlaces(2).times(discount.share).dividedBy(1000).toDecimalPlaces(2, Dec.ROUND_DOWN).toFixed(2) : null,
  }));
  const invoiceArb = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 6, max: 60 }), fc.integer({ min: 61, max: 200 }))
    .chain((n) => fc.array(lineArb, { minLength: n, maxLength: n }))
    .map((lines) => issued(lines.map((make, i) => make(i + 1))));
  const RUNS = Number(process.env.CREDIT_NOTE_PROPERTY_RUNS ?? 100);

  it('every credit note of a random sequence has a document whose totals are exactly its rows', () => {
    let documents = 0;
    fc.assert(fc.property(invoiceArb, fc.array(stepArb, { minLength: 1, maxLength: 10 }), (invoice, steps) => {
      for (const { request, rows } of creditNotesOf(invoice, steps)) {
        expectDocumentOfRows(creditNoteDocument(invoice, rows, header(request.reason)), rows);
        documents++;
      }
    }), { numRuns: RUNS });
    expect(documents).to.be.greaterThan(RUNS);
  });
});
