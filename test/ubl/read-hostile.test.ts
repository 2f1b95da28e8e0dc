// The UBL reader (the inbound path reads every received document with it) on hostile input: entity
// declarations in any encoding, UTF-16 documents, and documents with too many elements.
import { expect } from 'chai';
import type { InvoiceContent } from '../../commands/invoices/model.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { buildUbl, readUbl, UblReadError } from '../../src/modules/invoices/ubl/index.ts';
import { countStartTags, MAX_ELEMENTS } from '../../src/platform/xml/index.ts';
import { ENTITY_TEXT, encode, invoiceWithEntity, UTFS } from '../validation/support/encodings.ts';
import { invoiceWithNotes } from '../validation/support/generate-invoice.ts';
import { generateInvoice } from './support/generate.ts';
import { SEED } from './support/matrix.ts';

function refusal(xml: string | Uint8Array): { rule: string; message: string } {
  try {
    const read = readUbl(xml);
    return { rule: 'read', message: JSON.stringify(read) };
  } catch (err) {
    if (err instanceof UblReadError) return { rule: err.rule, message: err.message };
    throw err;
  }
}

/** The richest invoice the write side can make: 1,000 lines (the hard cap), each with a discount. */
function largestInvoice(): InvoiceContent {
  for (let i = 0; i < 500; i++) {
    const content = generateInvoice(SEED, i);
    const line = content.lines.find((l) => l.discount_percentage !== null);
    if (!line || content.billing_reference !== null) continue;
    return {
      ...content,
      note: 'Poznámka',
      buyer_reference: 'PO-1',
      order_reference: 'OBJ-1',
      delivery_date: content.issue_date,
      lines: Array.from({ length: 1000 }, (_, n) => ({ ...line, line_number: n + 1 })),
    };
  }
  throw new Error('no generated invoice has a discounted line');
}

describe('UBL reader: hostile documents', () => {
  for (const utf of UTFS) {
    it(`refuses a ${utf} DOCTYPE with or without BOM, and the entity's text never comes back`, () => {
      for (const bom of [false, true]) {
        for (const external of [false, true]) {
          const { rule, message } = refusal(encode(invoiceWithEntity(utf, external), utf, bom));
          expect(rule).to.equal(utf.startsWith('UTF-16') ? 'XML-DOCTYPE' : 'XML-ENCODING-UNSUPPORTED');
          expect(message).to.not.contain(ENTITY_TEXT);
        }
      }
    });
  }

  it('reads a UTF-16 document with a BOM as its UTF-8 original', () => {
    const content = generateInvoice(SEED, 2);
    const xml = buildUbl(content, computeTotals(content));
    const utf16 = encode(xml.replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'UTF-16BE', true);
    expect(readUbl(utf16)).to.deep.equal(readUbl(xml));
  });

  it('refuses 200,000 notes with XML-TOO-MANY-ELEMENTS', () => {
    expect(refusal(Buffer.from(invoiceWithNotes(200_000))).rule).to.equal('XML-TOO-MANY-ELEMENTS');
  });

  it('reads the largest invoice the write side can build: the element bound leaves it room', () => {
    const content = largestInvoice();
    const xml = buildUbl(content, computeTotals(content));
    const elements = countStartTags(xml, Number.MAX_SAFE_INTEGER);
    console.log(`      largest buildable invoice: ${elements} elements (bound ${MAX_ELEMENTS})`);
    expect(elements).to.be.lessThan(MAX_ELEMENTS * 0.9);
    expect(readUbl(xml).content.lines).to.have.length(1000);
  });
});
