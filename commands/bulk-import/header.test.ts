import { expect } from 'chai';
import { readHeader } from './header.ts';

const header = (...cells: string[]) => readHeader({ row: 1, cells });
const REQUIRED = ['invoice_ref', 'issue_date', 'item_name', 'quantity', 'unit_price', 'vat_rate'];

describe('bulk import: row 1 is the header', () => {
  it('compares names without case, surrounding spaces, and with spaces or hyphens as underscores', () => {
    const read = header(' Invoice_Ref', 'ISSUE-DATE', 'Item Name', 'quantity', 'Unit Price', 'VAT_RATE', 'Buyer Name', '');
    expect('header' in read && read.header.map((c) => c?.name ?? null)).to.deep.equal([...REQUIRED, 'buyer_name', null]);
  });

  it('makes the file unusable for an unknown or a repeated column, or a missing required one', () => {
    const unknown = header(...REQUIRED, 'colour');
    expect('errors' in unknown && unknown.errors.map((e) => [e.row, e.column])).to.deep.equal([[1, 'colour']]);
    const twice = header(...REQUIRED, 'Quantity');
    expect('errors' in twice && twice.errors.map((e) => e.column)).to.deep.equal(['quantity']);
    const missing = header(...REQUIRED.filter((c) => c !== 'unit_price'));
    expect('errors' in missing && missing.errors.map((e) => e.message)).to.deep.equal(['required column unit_price is missing']);
  });

  it('says so once when row 1 is blank', () => {
    const blank = header('', ' ');
    expect('errors' in blank && blank.errors).to.have.length(1);
  });
});
