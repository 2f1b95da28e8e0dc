// GET …/invoices/{id}/pdf over real HTTP with a buyer, items and a note in every script a European
// invoice may carry: each reads back from the PDF (pdfjs-dist) as written; an emoji, which no
// embedded font draws, is drawn as U+FFFD and reported in X-PDF-Missing-Glyphs and a warning.
import { expect } from 'chai';
import pino from 'pino';
import { readPdf, unwrapped } from '../pdf/extract.ts';
import { EMOJI, SCRIPTS } from '../pdf/samples.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('GET …/invoices/{id}/pdf over HTTP: every script prints, nothing is dropped silently', function () {
  this.timeout(180_000);
  let svc: TestService;
  let company: string;
  const warnings: Record<string, unknown>[] = [];
  const year = String(new Date().getUTCFullYear());
  const samples = Object.entries(SCRIPTS);

  const pdf = (id: string) => fetch(`${svc.api}/companies/${company}/invoices/${id}/pdf`, { headers: { 'x-api-key': svc.demo.api_key } });
  const create = async (buyer: string, items: string[], note: string) => {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-05`, due_date: `${year}-03-19`,
      buyer: { name: buyer, vat_id: 'SK2020000004', ico: '12345679', dic: '2020000004', city: 'Košice', postal_code: '040 01', street: 'Hlavná 1' },
      lines: items.map((item_name) => ({ item_name, quantity: '1', unit_code: 'C62', unit_price: '10.00', vat_rate: '23' })),
      note,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as { id: string; version: number };
  };

  before(async () => {
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });
    svc = await startTestService({ log });
    company = svc.demo.companies[0]!.id;
  });
  after(async () => svc?.close());

  it('Latin with diacritics, Greek, Cyrillic, Arabic, Hebrew, Thai, Chinese, Japanese: the buyer, each item and the note read back; no header', async () => {
    const invoice = await create(SCRIPTS.arabic, samples.map(([, text]) => text), samples.map(([, text]) => text).join('\n'));
    const res = await pdf(invoice.id);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-pdf-missing-glyphs')).to.equal(null);
    const { pages, fonts } = await readPdf(Buffer.from(await res.arrayBuffer()));
    const text = unwrapped(pages.map((p) => p.text).join('\n'));
    expect(text).not.to.include('\ufffd');
    for (const [script, sample] of samples) expect(text.split(sample).length - 1, script).to.be.at.least(script === 'arabic' ? 3 : 2);
    expect(fonts.every((f) => f.embedded)).to.equal(true);
  });

  it('an emoji in the buyer, an item and the note: 200, drawn as U+FFFD (the text around it kept), X-PDF-Missing-Glyphs names it, a warning with the id and code point only', async () => {
    const name = `Kvetinárstvo ${EMOJI} Ruža`;
    const invoice = await create(name, [`Kytica ${EMOJI}`], `Ďakujeme ${EMOJI}`);
    warnings.length = 0;
    const res = await pdf(invoice.id);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-pdf-missing-glyphs')).to.equal('U+1F600');
    const text = unwrapped((await readPdf(Buffer.from(await res.arrayBuffer()))).pages[0]!.text);
    for (const part of ['Kvetinárstvo \ufffd Ruža', 'Kytica \ufffd', 'Ďakujeme \ufffd']) expect(text).to.include(part);
    const warning = warnings.find((w) => w['invoice_id'] === invoice.id);
    expect(warning, JSON.stringify(warnings)).to.deep.include({ missing_glyphs: ['U+1F600'], version: invoice.version });
    expect(JSON.stringify(warning)).not.to.include('Ruža').and.not.to.include(EMOJI);
    // a cached version says the same
    expect((await pdf(invoice.id)).headers.get('x-pdf-missing-glyphs')).to.equal('U+1F600');
  });

  it('the OpenAPI document describes the header on the 200', async () => {
    const doc = (await (await fetch(`${svc.root}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const ok = doc.paths['/companies/{company_id}/invoices/{invoice_id}/pdf']?.['get']?.responses['200'];
    expect(ok?.headers).to.have.property('X-PDF-Missing-Glyphs');
  });
});
