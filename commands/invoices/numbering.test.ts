import { expect } from 'chai';
import { specFor } from '../shared/given.ts';
import {
  DEFAULT_PATTERNS,
  invoiceNumberClaimDecider,
  invoiceNumberKey,
  invoiceNumberScope,
  invoiceSeriesDecider,
  patternProblem,
  previewNumber,
  renderNumber,
} from './numbering.ts';

const at = '2026-11-22T10:00:00.000Z';

describe('invoice numbering', () => {
  it('renders the default patterns: digits usable as a variable symbol, and DOB-{year}-{seq} for credit notes', () => {
    expect(renderNumber(DEFAULT_PATTERNS.invoice, '2026', 1)).to.equal('2026000001');
    expect(renderNumber(DEFAULT_PATTERNS.credit_note, '2026', 12)).to.equal('DOB-2026-12');
    expect(renderNumber('FA/{yy}/{seq:3}', '2026', 7)).to.equal('FA/26/007');
  });

  it('refuses a pattern without {seq}, with an unknown placeholder, or with other characters', () => {
    expect(patternProblem('FA-{year}')).to.match(/\{seq\}/);
    expect(patternProblem('FA-{month}-{seq}')).to.match(/unknown placeholder/);
    expect(patternProblem('FA {seq}')).to.match(/letters, digits/);
    expect(patternProblem('FA-{year}-{seq:4}')).to.equal(null);
  });

  describe('series', () => {
    const given = specFor(invoiceSeriesDecider);
    const reserve = { type: 'ReserveNumber', series: 'invoice', pattern: DEFAULT_PATTERNS.invoice, year: '2026', invoice_id: 'i2', at } as const;
    const first = { type: 'InvoiceNumberReserved', data: { series: 'invoice', seq: 1, invoice_number: '2026000001', invoice_id: 'i1', reserved_at: at } } as const;

    it('starts at 1', () => given([]).when({ ...reserve, invoice_id: 'i1' }).then([first]));
    it('hands out the next number, never one reserved before', () =>
      given([first]).when(reserve).then([
        { type: 'InvoiceNumberReserved', data: { series: 'invoice', seq: 2, invoice_number: '2026000002', invoice_id: 'i2', reserved_at: at } },
      ]));
    it('skips the numbers the document found taken (a client gave them to invoices of theirs), whatever their case', () =>
      given([first]).when({ ...reserve, taken: ['2026000002', ' 2026000003 '] }).then([
        { type: 'InvoiceNumberReserved', data: { series: 'invoice', seq: 4, invoice_number: '2026000004', invoice_id: 'i2', reserved_at: at } },
      ]));
    it('a taken number behind the series changes nothing', () =>
      given([first]).when({ ...reserve, taken: ['2026000001'] }).then([
        { type: 'InvoiceNumberReserved', data: { series: 'invoice', seq: 2, invoice_number: '2026000002', invoice_id: 'i2', reserved_at: at } },
      ]));
    it('refuses a broken pattern', () => given([]).when({ ...reserve, pattern: 'FA' }).thenThrows('invalid_numbering_pattern'));
    it('previews without reserving', () => expect(previewNumber(DEFAULT_PATTERNS.invoice, '2026', { last_seq: 41 })).to.equal('2026000042'));
  });

  describe('uniqueness in the organisation and tax year', () => {
    const given = specFor(invoiceNumberClaimDecider);
    const scope = invoiceNumberScope('o1', '2026');
    const claimed = { type: 'ValueClaimed', data: { scope, value: 'FA-1', holder_id: 'i1', claimed_at: at } } as const;
    it('refuses a number another invoice holds with invoice_number_conflict', () =>
      given([claimed])
        .when({ type: 'ClaimValue', scope, value: 'FA-1', holder_id: 'i2', holder_exists: true, at })
        .thenThrows('invoice_number_conflict', { invoice_id: 'i1' }));
    it('compares numbers without case or surrounding spaces', () => expect(invoiceNumberKey(' fa-1 ')).to.equal(invoiceNumberKey('FA-1')));
    it('scopes numbers by organisation and tax year', () => expect(invoiceNumberScope('o1', '2027')).to.not.equal(scope));
  });
});
