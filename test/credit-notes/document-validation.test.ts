// Every credit note we build validates: the document of rows made by the credit-note rules, written
// by buildUbl, passes XSD + CEN EN16931 + Peppol BIS 3.0.21 + Slovak with no fatal finding. Fixed
// cases for each kind of row and the cent-sized corners, then generated invoices and sequences
// (fast-check; CREDIT_NOTE_UBL_RUNS runs, default 80, CREDIT_NOTE_UBL_SEED to reproduce one).
import { expect } from 'chai';
import fc from 'fast-check';
import { creditNotesOf, stepArb } from '../../commands/credit-notes/document-arbitraries.ts';
import { expectDocumentOfRows } from '../../commands/credit-notes/document-checks.ts';
import { creditNoteDocument } from '../../commands/credit-notes/document.ts';
import type { CreditNoteRequest, CreditRow } from '../../commands/credit-notes/model.ts';
import { credit, fullReversal, issued, line, partial, returned } from '../../commands/credit-notes/test-fixtures.ts';
import { invoiceLineId } from '../../commands/invoices/line-id.ts';
import { Dec } from '../../commands/invoices/money.ts';
import type { InvoiceContent, InvoiceLine, InvoiceTotals } from '../../commands/invoices/model.ts';
import type { KnownInvoice } from '../../commands/invoices/state.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { buildUbl, readUbl } from '../../src/modules/invoices/ubl/index.ts';
import { createValidator, type Validator } from '../../src/platform/validation/index.ts';
import { generateInvoice } from '../ubl/support/generate.ts';
import { SEED } from '../ubl/support/matrix.ts';
import { ARTIFACTS, CACHE, needArtifacts } from '../validation/support/paths.ts';

const RUNS = Number(process.env['CREDIT_NOTE_UBL_RUNS'] ?? 80);
const id = (n: number) => invoiceLineId('inv-1', n);

/** The first generated invoice (380) that fits, with its parties and payment; lines replaced when given. */
function invoiceLike(fits: (c: InvoiceContent) => boolean, lines?: InvoiceLine[]): KnownInvoice {
  for (let index = 0; index < 1000; index++) {
    const generated = generateInvoice(SEED, index);
    if (generated.invoice_type !== '380' || !fits(generated)) continue;
    const content = lines ? { ...generated, lines } : generated;
    return issued(content.lines, { content, totals: computeTotals(content), invoice_number: content.invoice_number });
  }
  throw new Error('no generated invoice fits');
}

const only = (...categories: string[]) => (c: InvoiceContent) => c.lines.every((l) => categories.includes(l.vat_category_code));
const domestic = (c: InvoiceContent) => c.currency_code === 'EUR' && c.buyer.vat_id !== '' && only('S', 'Z', 'E')(c);

interface Built {
  name: string;
  rows: CreditRow[];
  totals: InvoiceTotals;
  xml: string;
}

function build(name: string, invoice: KnownInvoice, request: CreditNoteRequest, rows: CreditRow[], n: number): Built {
  const document = creditNoteDocument(invoice, rows, { credit_note_number: `DOB-2026-${n}`, issue_date: '2026-12-15', reason: request.reason, note: n % 2 ? 'Reklamácia & dohoda <č. 7>' : null });
  expectDocumentOfRows(document, rows);
  const xml = buildUbl(document.content, document.totals);
  // the receiver reads it back (an inbound credit note copy): the same document, stating the rows' amounts
  const read = readUbl(xml);
  expect(buildUbl(read.content, read.totals), `${name}: rebuilt from what a receiver reads`).to.equal(xml);
  const { total_net, total_vat, total_gross, amount_due, vat_breakdown, allowances_charges } = document.totals;
  expect(read.totals, `${name}: stated totals`).to.deep.include({ total_net, total_vat, total_gross, amount_due, vat_breakdown, allowances_charges });
  expect(read.content.billing_reference).to.deep.equal({ invoice_number: invoice.content.invoice_number, issue_date: invoice.content.issue_date });
  return { name, rows, totals: document.totals, xml };
}

/** The credit notes the requests make in turn against the invoice, built. */
function sequence(name: string, invoice: KnownInvoice, ...requests: CreditNoteRequest[]): Built[] {
  return credit(invoice, ...requests).notes.map((note, i) => build(`${name} #${i + 1} ${requests[i]!.reason}`, invoice, requests[i]!, note.rows, i + 1));
}

/** What the generated documents exercised: row kinds, ZZZ corrections, and VAT carried off the rate's rounding. */
function count(seen: { documents: number; kinds: Map<string, number>; zzz: number; offRate: number; maxOffRate: Dec }, built: Built): void {
  seen.documents++;
  for (const row of built.rows) seen.kinds.set(row.kind, (seen.kinds.get(row.kind) ?? 0) + 1);
  if (built.totals.allowances_charges.length > 0) seen.zzz++;
  const off = built.totals.vat_breakdown.map((s) => new Dec(s.tax_amount).minus(new Dec(s.taxable_amount).times(s.vat_rate).dividedBy(100).toDecimalPlaces(2)).abs());
  const most = Dec.max(0, ...off);
  if (most.greaterThan(0)) seen.offRate++;
  seen.maxOffRate = Dec.max(seen.maxOffRate, most);
}

describe('credit-note documents pass XSD, CEN, Peppol and Slovak rules', function () {
  this.timeout(600_000);
  before(needArtifacts);
  let validator: Validator | undefined;
  before(async () => {
    validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 2 });
  });
  after(() => validator?.close());

  /** The findings of each document that is not valid everywhere, validated two at a time per worker. */
  async function invalid(built: Built[]): Promise<string[]> {
    const v = validator;
    if (!v) throw new Error('validator not started');
    const failures: string[] = [];
    const queue = [...built];
    const work = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const report = await v.validate(next.xml);
        if (report.document_type === 'CreditNote' && report.xsd_valid && report.peppol_valid && report.slovak_valid && report.errors.length === 0) continue;
        const kinds = [...new Set(next.rows.map((r) => r.kind))].join('+');
        failures.push(`${next.name} (${kinds}): ${report.errors.map((e) => `${e.rule} at ${e.location}: ${e.message}`).join('\n    ')}`);
      }
    };
    await Promise.all([work(), work(), work(), work()]);
    return failures;
  }

  it('mixed rates 23/19/5 with Z and E, discounts, ZZZ rounding, cent-adjusted splits, pieces and a full reversal after them', async () => {
    const lines = [
      line(1, { item_name: 'Konzultácia', quantity: '2.5', unit_code: 'HUR', unit_price: '40.00' }),
      line(2, { item_name: 'Papier A4', quantity: '7', unit_price: '7.77', discount_percentage: '3' }),
      line(3, { item_name: 'Toner', quantity: '3', unit_price: '3.33', discount_percentage: '5', vat_rate: '5' }),
      line(4, { item_name: 'Spojovací materiál', quantity: '3', unit_price: '0.3333', vat_rate: '19' }),
      line(5, { item_name: 'Drobnosť', unit_price: '0.02', vat_rate: '19' }),
      line(6, { item_name: 'Drobnosť', unit_price: '0.02', vat_rate: '19' }),
      line(7, { item_name: 'Kniha', quantity: '2', unit_price: '12.90', vat_rate: '0', vat_category_code: 'Z' }),
      line(8, { item_name: 'Školenie', quantity: '1', unit_price: '150.00', vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132', discount_amount: '15.00' }),
    ];
    const invoice = invoiceLike(domestic, lines);
    expect(invoice.totals.zzz_correction_amount, 'the invoice has a ZZZ correction').to.not.equal('0.00');
    const piece = returned({ source_line_id: id(3), quantity: '1' });
    const thirds = returned({ source_line_id: id(4), quantity: '1' });
    const built = [
      // copies and the buckets' rounding parts
      ...sequence('full reversal of the whole invoice', invoice, fullReversal),
      ...sequence(
        'credits in turn', invoice,
        piece,
        // 6.63 at 5 %: the split 6.31 + 0.32 would take more VAT than the 0.31 left, so 6.32 + 0.31
        partial({ vat_rate: '5', gross: '6.63' }),
        returned({ source_line_id: id(2), quantity: '2' }),
        { reason: 'price_correction', amounts: [{ vat_rate: '23', gross: '1.23' }, { vat_rate: '0', vat_category_code: 'Z', gross: '5.00' }, { vat_rate: '0', vat_category_code: 'E', gross: '10.00' }] },
        thirds, thirds,
        returned({ source_line_id: id(1), quantity: '0.5' }, { source_line_id: id(7), quantity: '1' }),
        fullReversal,
      ),
    ];
    const notes = credit(invoice, piece, partial({ vat_rate: '5', gross: '6.63' })).notes;
    expect(notes[1]!.rows[0]).to.deep.include({ base: '6.32', vat: '0.31' });
    expect(await invalid(built)).to.deep.equal([]);
  });

  it('a discounted row returned in pieces, each piece its own credit note, the last with the bucket\'s rounding part', async () => {
    const lines = [line(1, { quantity: '3', unit_price: '3.33', discount_percentage: '5' }), line(2, { unit_price: '0.02' }), line(3, { unit_price: '0.02' })];
    const invoice = invoiceLike(domestic, lines);
    const one = returned({ source_line_id: id(1), quantity: '1' });
    const built = sequence('pieces', invoice, one, one, one, returned({ source_line_id: id(2), quantity: '1' }, { source_line_id: id(3), quantity: '1' }));
    expect(built.at(-1)!.rows.map((r) => r.kind)).to.include('rounding');
    expect(await invalid(built)).to.deep.equal([]);
  });

  it('reverse charge (AE), intra-community supply (K), not subject to VAT (O) and CZK invoices', async () => {
    const built: Built[] = [];
    const cases: [string, (c: InvoiceContent) => boolean][] = [
      ['AE', (c) => c.lines.some((l) => l.vat_category_code === 'AE')],
      ['K', (c) => c.lines.some((l) => l.vat_category_code === 'K')],
      ['O', (c) => c.lines.every((l) => l.vat_category_code === 'O')],
      ['CZK', (c) => c.currency_code === 'CZK'],
    ];
    for (const [name, fits] of cases) {
      const invoice = invoiceLike((c) => fits(c) && c.lines.length <= 60 && c.lines.every((l) => !l.quantity.startsWith('-')));
      const first = invoice.content.lines[0]!;
      const back = returned({ source_line_id: id(first.line_number), quantity: first.quantity });
      // a partial credit in the bucket with the most left after the return, of at most 1.00
      const most = credit(invoice, back).allowance.buckets.reduce((a, b) => (new Dec(b.left_gross).greaterThan(a.left_gross) ? b : a));
      const gross = Dec.min(new Dec(most.left_gross), 1).toFixed(2);
      const some = partial({ vat_rate: most.vat_rate, vat_category_code: most.vat_category_code, vat_exemption_reason_code: most.vat_exemption_reason_code, gross });
      built.push(...sequence(`${name} full reversal`, invoice, fullReversal));
      const credits = gross === '0.00' ? [back] : [back, some];
      if (credit(invoice, ...credits).allowance.creditable) credits.push(fullReversal);
      built.push(...sequence(`${name} credits`, invoice, ...credits));
    }
    expect(await invalid(built)).to.deep.equal([]);
  });

  it(`generated invoices and random sequences of the four reasons (${RUNS} runs)`, async () => {
    const seed = process.env['CREDIT_NOTE_UBL_SEED'] === undefined ? undefined : Number(process.env['CREDIT_NOTE_UBL_SEED']);
    // generated invoices (of the UBL property test's generator), cut to a few lines so a run stays quick
    const invoiceArb = fc.record({ index: fc.nat(3000).filter((i) => i % 3 !== 2), lines: fc.integer({ min: 1, max: 12 }) }).map(({ index, lines }) => {
      const generated = generateInvoice(SEED, index);
      const content = { ...generated, lines: generated.lines.slice(0, lines) };
      return issued(content.lines, { content, totals: computeTotals(content), invoice_number: content.invoice_number });
    });
    const seen = { documents: 0, kinds: new Map<string, number>(), zzz: 0, offRate: 0, maxOffRate: new Dec(0) };
    await fc.assert(
      fc.asyncProperty(invoiceArb, fc.array(stepArb, { minLength: 1, maxLength: 6 }), async (invoice, steps) => {
        const built = creditNotesOf(invoice, steps).map(({ request, rows }, i) => build(`${invoice.content.invoice_number} #${i + 1} ${request.reason}`, invoice, request, rows, i + 1));
        for (const b of built) count(seen, b);
        expect(await invalid(built)).to.deep.equal([]);
      }),
      { numRuns: RUNS, ...(seed === undefined ? {} : { seed }) },
    );
    const kinds = [...seen.kinds].map(([kind, n]) => `${kind} ${n}`).join(', ');
    console.log(
      `      credit-note UBL property: ${RUNS} runs, ${seen.documents} credit notes validated (rows: ${kinds}); ` +
        `${seen.zzz} with a ZZZ correction, ${seen.offRate} with VAT off round(taxable × rate), by up to ${seen.maxOffRate.toFixed(2)}`,
    );
    expect(seen.documents).to.be.greaterThan(RUNS / 2);
  });
});
