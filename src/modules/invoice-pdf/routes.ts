import { Type } from '@sinclair/typebox';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { checkExportAllowed } from '../exports/index.ts';
import { invoicePdf, type InvoicePdfDeps } from './invoice-pdf.ts';
import { companyOf, loadInvoice, type Lookups } from '../invoices/index.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { PayBySquare } from '../../../schemas/invoice-pdf.ts';
import { payBySquareOf } from './pay-by-square.ts';
import type { Core } from '../../platform/core.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { ETAG_HEADER } from '../../platform/http/index.ts';

const etagOf = (version: number) => `"pdf-${version}"`;

/** The response header naming the code points drawn as U+FFFD; at most this many are listed (the lowest). */
export const MISSING_GLYPHS_HEADER = 'X-PDF-Missing-Glyphs';
const MISSING_GLYPHS_LISTED = 64;
const codePointName = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

const DESCRIPTION = `The document as a PDF for people: an invoice (380, "Faktúra"), a proforma (325, "Proforma faktúra", marked as not a tax
document), a credit note (381, "Dobropis", with the credited invoice's number and date and the reason) or an inbound copy
(marked as received over Peppol). A4, Slovak labels: number; issue, delivery and due dates; both parties with IČO, DIČ and
IČ DPH; IBAN and variable symbol; the lines; the VAT breakdown per rate; the totals with the ZZZ rounding correction when
there is one; the amount to pay; the note. A document not issued yet (draft, validated, pending_approval, approved) is
stamped "NÁVRH", a voided invoice "STORNOVANÁ".

**Every script a European invoice carries prints and reads back.** The fonts are embedded (a subset of the characters
used): Noto Sans for Latin (every letter of Slovak), Greek and Cyrillic; for a character it lacks, IBM Plex Sans Arabic,
Noto Sans Hebrew, Noto Sans Thai and Noto Sans SC (Chinese, Japanese kana). Arabic and Hebrew are set right to left (the
Unicode bidirectional algorithm; Arabic letters joined), and text extracted from the PDF is the text as written. A
character no embedded font has (an emoji, a script not listed) is never dropped silently: it is drawn as U+FFFD (�,
visible, and it reads back as U+FFFD), the response carries \`${MISSING_GLYPHS_HEADER}\` with its code points, and the
service logs a warning with the document's id and the code points (never the text).

**Not plan-gated.** The spec gates "CSV/PDF export"; one document's PDF is the document itself, which credit-note rule 7 has
the caller hand the buyer (and which an invoice marked sent by hand needs), so every plan gets it. \`pdf_export\` is the
feature of exporting PDFs in bulk, which is not offered yet; the register's CSV export is gated (\`csv_export\`).

The same version always gives the same bytes (the PDF's creation date is the time that version was recorded). The ETag
names the version; send it back in If-None-Match to get 304 while the document has not changed.`;
/** the PDF's own ETag, `"pdf-<version>"`, as If-None-Match sends it back */
const PDF_ETAG = { ...ETAG_HEADER, description: 'the PDF\'s version (`"pdf-<version>"`): send it back in If-None-Match' };
const pdfHeaders = (etag: string) => ({ etag, 'cache-control': 'private, no-cache' });

/** A filename header value: an ASCII fallback and the UTF-8 name (RFC 6266), from a client-chosen number. */
function contentDisposition(disposition: 'inline' | 'attachment', title: string, invoiceNumber: string): string {
  const name = `${title} ${invoiceNumber}.pdf`;
  const ascii = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const notModified = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*' || tag.trim() === `W/${etag}`);

/** GET …/invoices/{id}/pdf: the printed document of any invoice-stream document; GET …/pay-by-square: its QR payment code. */
export function invoicePdfRoutes(deps: InvoicePdfDeps & Pick<Core, 'readModels'> & { lookups: Lookups }): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/pdf', operationId: 'getInvoicePdf', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'The invoice, proforma, credit note or inbound copy as a PDF (Slovak, A4)',
      description: DESCRIPTION,
      params: Type.Object({ company_id: Uuid, invoice_id: Uuid }),
      query: Type.Object({
        disposition: Type.Optional(Type.Union([Type.Literal('inline'), Type.Literal('attachment')], { description: 'Content-Disposition: inline (default, shown in the browser) or attachment (saved)' })),
      }),
      headerDocs: [{ name: 'If-None-Match', description: 'the ETag of a PDF fetched before: 304 while the document is at that version', schema: Type.String() }],
      responses: {
        200: {
          description: 'the PDF; ETag `"pdf-<version>"`',
          schema: Type.String({ format: 'binary' }),
          mediaType: 'application/pdf',
          headers: [PDF_ETAG, {
            name: MISSING_GLYPHS_HEADER,
            description: `only when some character could not be drawn by any embedded font (each such character is drawn as U+FFFD): its code points, distinct, ascending, comma-separated, at most ${MISSING_GLYPHS_LISTED} listed (the lowest)`,
            schema: Type.String({ examples: ['U+1F44D, U+1F600'] }),
          }],
        },
        304: { description: 'the document is still at the version of If-None-Match', headers: [PDF_ETAG] },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation’s, or another company’s)', schema: ErrorBody },
      },
      async handle({ params, query, actor, headers, log }) {
        await checkExportAllowed(deps, actor, 'document_pdf');
        const company = await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: company.id };
        const pdf = await invoicePdf(deps, scope, params.invoice_id, (version) => notModified(headers['if-none-match'], etagOf(version)));
        if (pdf.unchanged) return { status: 304, headers: pdfHeaders(etagOf(pdf.version)) };
        const etag = etagOf(pdf.version);
        const missing = pdf.missingGlyphs.map(codePointName);
        // the code points, never the text they were in
        if (missing.length > 0) log.warn({ invoice_id: params.invoice_id, version: pdf.version, missing_glyphs: missing }, 'PDF drawn with U+FFFD for characters no embedded font has');
        return {
          status: 200,
          body: pdf.bytes,
          headers: {
            ...pdfHeaders(etag),
            'content-type': 'application/pdf',
            'content-disposition': contentDisposition(query.disposition ?? 'inline', pdf.title, pdf.invoiceNumber),
            ...(missing.length > 0 ? { [MISSING_GLYPHS_HEADER.toLowerCase()]: missing.slice(0, MISSING_GLYPHS_LISTED).join(', ') } : {}),
          },
        };
      },
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/pay-by-square', operationId: 'getInvoicePayBySquare', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'The invoice\'s PAY by square code: the QR payment Slovak banking apps read',
      description: [
        'The same code the PDF draws: the amount due, currency, the supplier\'s IBAN (and the BIC of the company\'s account), the variable',
        'symbol (the invoice\'s, else its number\'s digits), the due date and the payee, encoded by the PAY by square standard of the',
        'Slovak Banking Association. Draw `code` as a QR code to show it elsewhere (an e-mail, a payment page).',
        'A document that asks for no transfer has no code: 409 `pay_by_square_no_account` (no IBAN, paid by card, or an IBAN/BIC the',
        'standard refuses) or 409 `pay_by_square_nothing_due` (a credit note, an amount due of zero or less, a voided or cancelled invoice).',
      ].join(' '),
      params: Type.Object({ company_id: Uuid, invoice_id: Uuid }),
      responses: {
        200: { description: 'the code and what it pays', schema: PayBySquare },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation’s, or another company’s)', schema: ErrorBody },
        409: { description: '`pay_by_square_no_account` / `pay_by_square_nothing_due`: the document asks for no transfer', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        const company = await companyOf(deps, actor, params.company_id);
        const { state } = await loadInvoice(deps, { organisationId: actor.organisationId, companyId: company.id }, params.invoice_id);
        const found = payBySquareOf(state);
        if (!found.ok) {
          throw found.code === 'pay_by_square_nothing_due'
            ? new DomainError('pay_by_square_nothing_due', found.message)
            : new DomainError('pay_by_square_no_account', found.message);
        }
        const { payment } = found;
        return {
          status: 200,
          body: {
            code: found.code,
            payment: {
              amount: payment.amount, currency: payment.currency, iban: payment.iban, bic: payment.bic || null,
              variable_symbol: payment.variable_symbol, due_date: payment.due_date, payee: payment.payee.name,
            },
          },
        };
      },
    }),
  ];
}
