/**
 * What a document's PDF says, decided here and only laid out by the renderer (src/modules/invoice-pdf/render): every
 * label in Slovak, every value formatted, so the words can be tested without a PDF.
 *
 * - Title by type: 380 "Faktúra", 325 "Proforma faktúra" (with "Nie je daňový doklad": a
 *   proforma asks for payment, it is not a tax document), 381 "Dobropis". An inbound copy says it
 *   is the copy received over Peppol.
 * - Dates: issue, delivery (the supply date; the issue date when the invoice names none, as the
 *   spec says to omit an equal one) and due (when there is one).
 * - Parties: name, address, then IČO, DIČ and IČ DPH each labelled, the ones the party has; the
 *   seller's register entry and contact from its company profile, when the invoice carries them.
 * - Payment: means, IBAN (in groups of four), BIC, variable symbol (the number's digits when the
 *   document names none, as the QR code pays with), currency; the PAY by square code's payment,
 *   or why there is none.
 * - Lines, the VAT breakdown per category and rate (an exempt or reverse-charge row says so in
 *   words, as the Slovak VAT act wants), totals, every document-level allowance or charge (the
 *   ZZZ correction as "Korekcia zaokrúhlenia ZZZ (23 %)" per VAT group, when present), the rounding, and the amount
 *   to pay (a credit note's "Suma dobropisu").
 * - A credit note: the credited invoice's number and issue date and the reason.
 * - A document not issued yet (draft, validated, pending approval, approved) carries the stamp
 *   "NÁVRH"; a voided invoice "STORNOVANÁ", a cancelled one "ZRUŠENÁ": a status change moves the
 *   version, so a cached PDF never shows a stale one.
 * - Numbers the Slovak way: "1 234,50" (no-break space, decimal comma), dates "05.03.2026",
 *   rates "23 %".
 */
import { REASON_TEXTS } from '../credit-notes/document-texts.ts';
import type { CreditReason } from '../credit-notes/model.ts';
import { Dec } from '../invoices/money.ts';
import type { InvoiceContent, InvoiceTotals, Party, SellerDetails, VatCategoryCode } from '../invoices/model.ts';
import { paymentRequest, variableSymbolOf, type PaymentRequest } from './pay-by-square.ts';

export interface PrintedField {
  label: string;
  value: string;
}

export interface PrintedParty {
  heading: string;
  name: string;
  address: string[];
  identifiers: PrintedField[];
  /** the seller's register entry and contact, each a line under its identifiers (none for the buyer) */
  notes: string[];
}

/** The PAY by square block: the payment its QR code asks for, or why there is none, in words. */
export type PrintedPaymentCode = { payment: PaymentRequest } | { notice: string };

export interface PrintedLine {
  number: string;
  name: string;
  quantity: string;
  unit: string;
  unit_price: string;
  discount: string;
  vat_rate: string;
  net: string;
  gross: string;
}

interface PrintedVatRow {
  rate: string;
  base: string;
  vat: string;
  gross: string;
}

export interface PrintedDocument {
  title: string;
  number: string;
  /** a line under the title (proforma, inbound copy), or null */
  subtitle: string | null;
  /** NÁVRH / STORNOVANÁ / ZRUŠENÁ, or null for an issued document */
  stamp: string | null;
  dates: PrintedField[];
  supplier: PrintedParty;
  buyer: PrintedParty;
  payment: PrintedField[];
  /** the PAY by square code (commands/exports/pay-by-square.ts), drawn beside the amount to pay */
  payment_code: PrintedPaymentCode;
  /** a credit note's credited invoice and reason; null otherwise */
  credit: { heading: string; fields: PrintedField[] } | null;
  lineHeadings: Record<keyof PrintedLine, string>;
  lines: PrintedLine[];
  vatHeadings: Record<keyof PrintedVatRow, string>;
  vat: PrintedVatRow[];
  totals: PrintedField[];
  payable: PrintedField;
  note: string | null;
  /** what the PDF's document information names */
  info: { title: string; author: string; subject: string };
}

/** What the printed document is made from: an invoice's stream folded (commands/invoices/state.ts). */
export interface PrintableInvoice {
  status: string;
  source: 'api' | 'peppol';
  content: InvoiceContent;
  totals: InvoiceTotals;
  credited_invoice: { invoice_number: string; issue_date: string; reason: CreditReason } | null;
}

const TITLES: Record<InvoiceContent['invoice_type'], string> = { '380': 'Faktúra', '325': 'Proforma faktúra', '381': 'Dobropis', '384': 'Opravná faktúra' };

/** "Faktúra", "Proforma faktúra" or "Dobropis". */
export const documentTitle = (type: InvoiceContent['invoice_type']): string => TITLES[type];

const STAMPS: Partial<Record<string, string>> = {
  draft: 'NÁVRH', validated: 'NÁVRH', pending_approval: 'NÁVRH', approved: 'NÁVRH', voided: 'STORNOVANÁ', cancelled: 'ZRUŠENÁ',
};

const PAYMENT_MEANS: Record<InvoiceContent['payment_means_code'], string> = {
  '30': 'Bankový prevod (SEPA)',
  '42': 'Prevod na bankový účet',
  '48': 'Platobná karta',
};

/** UN/ECE Rec. 20 codes as a Slovak invoice abbreviates them; any other code is printed as it is. */
const UNITS: Partial<Record<string, string>> = {
  C62: 'ks', H87: 'ks', EA: 'ks', HUR: 'hod', DAY: 'deň', E49: 'prac. deň', MON: 'mes.', KGM: 'kg', MTR: 'm', LTR: 'l',
};

/** The words a rate alone does not say (the Slovak VAT act wants them on the invoice). */
const CATEGORY_WORDS: Partial<Record<VatCategoryCode, string>> = {
  Z: 'nulová sadzba',
  E: 'oslobodené od DPH',
  AE: 'prenesenie daňovej povinnosti',
  K: 'oslobodené dodanie do iného členského štátu',
  G: 'vývoz',
  O: 'nepodlieha DPH',
  L: 'IGIC',
  M: 'IPSI',
};

const NBSP = '\u00a0';

/** "1234567.5" → "1 234 567,5": groups of three with a no-break space, decimal comma, sign kept. */
function slovakNumber(plain: string): string {
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = plain.replace(/^[+-]/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
  return `${negative ? '-' : ''}${grouped}${fraction ? `,${fraction}` : ''}`;
}

const plainDecimal = (value: string): string | null => (/^[+-]?\d+(?:\.\d+)?$/.test(value) ? value : null);

/** Money with two decimals ("1 234,50"); a value that is not a decimal is printed as it came. */
export function formatAmount(value: string): string {
  const plain = plainDecimal(value);
  return plain === null ? value : slovakNumber(new Dec(plain).toFixed(2));
}

/** A quantity in its shortest form ("1,5"). */
export function formatQuantity(value: string): string {
  const plain = plainDecimal(value);
  return plain === null ? value : slovakNumber(new Dec(plain).toString());
}

/** A unit price with at least two decimals and all the ones it has ("0,0125"). */
export function formatUnitPrice(value: string): string {
  const plain = plainDecimal(value);
  if (plain === null) return value;
  const d = new Dec(plain);
  return slovakNumber(d.decimalPlaces() < 2 ? d.toFixed(2) : d.toString());
}

const formatRate = (rate: string) => `${formatQuantity(rate)}${NBSP}%`;

/** 2026-03-05 → 05.03.2026; anything else as it came. */
export function formatDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

/** SK3112000000198742637541 → "SK31 1200 0000 1987 4263 7541". */
export const formatIban = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

/** An allowance lowers the total: printed with a minus. */
const negated = (value: string) => (plainDecimal(value) === null || new Dec(value).isZero() ? value : new Dec(value).negated().toFixed(2));

const isZero = (value: string) => plainDecimal(value) !== null && new Dec(value).isZero();

function party(heading: string, p: Party, details?: SellerDetails): PrintedParty {
  const place = [p.postal_code, p.city].filter((s) => s.trim() !== '').join(' ');
  const identifiers: PrintedField[] = [];
  if (p.ico) identifiers.push({ label: 'IČO', value: p.ico });
  if (p.dic) identifiers.push({ label: 'DIČ', value: p.dic });
  if (p.vat_id) identifiers.push({ label: 'IČ DPH', value: p.vat_id });
  const contact = details ? [details.contact_name, details.contact_phone, details.contact_email].filter((s) => s.trim() !== '').join(', ') : '';
  return {
    heading,
    name: p.name,
    address: [p.street, details?.additional_street ?? '', place, p.country_code && p.country_code !== 'SK' ? p.country_code : ''].filter((s) => s.trim() !== ''),
    identifiers,
    // the register entry as the register words it ("zapísaná v Obchodnom registri …"), capitalised as a sentence
    notes: [details?.register_entry ? capitalised(details.register_entry) : '', contact ? `Kontakt: ${contact}` : ''].filter((s) => s !== ''),
  };
}

const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase('sk') + text.slice(1);

/** What the PAY by square block shows: the payment, or why a document has no code. */
function paymentCode(invoice: PrintableInvoice): PrintedPaymentCode {
  const decided = paymentRequest(invoice);
  return decided.ok ? { payment: decided.payment } : { notice: `QR platba (PAY by square): ${decided.words}` };
}

function vatLabel(category: VatCategoryCode, rate: string, exemption: string | null): string {
  const words = CATEGORY_WORDS[category];
  const base = category === 'S' ? formatRate(rate) : `${formatRate(rate)} – ${words ?? category}`;
  return exemption ? `${base} (${exemption})` : base;
}

function lineVat(category: VatCategoryCode, rate: string): string {
  return category === 'S' ? formatRate(rate) : `${formatRate(rate)} ${category}`;
}

function allowanceLabel(a: InvoiceTotals['allowances_charges'][number]): string {
  if (a.reason_code === 'ZZZ') return `Korekcia zaokrúhlenia ZZZ (${formatRate(a.vat_rate)})`;
  const what = a.charge ? 'Poplatok' : 'Zľava';
  return a.reason ? `${what}: ${a.reason}` : what;
}

function creditBlock(invoice: PrintableInvoice): PrintedDocument['credit'] {
  const { content, credited_invoice } = invoice;
  // a corrected invoice prints the invoice it corrects, as a credit note prints the one it credits
  if (content.invoice_type === '384' && content.billing_reference) {
    const { invoice_number, issue_date } = content.billing_reference;
    const fields: PrintedField[] = [{ label: 'Opravovaná faktúra č.', value: invoice_number }];
    if (issue_date) fields.push({ label: 'Zo dňa', value: formatDate(issue_date) });
    return { heading: 'Oprava faktúry', fields };
  }
  if (content.invoice_type !== '381') return null;
  const reference = credited_invoice ?? (content.billing_reference ? { ...content.billing_reference, reason: null } : null);
  if (!reference) return null;
  const fields: PrintedField[] = [{ label: 'Opravovaná faktúra č.', value: reference.invoice_number }];
  if (reference.issue_date) fields.push({ label: 'Zo dňa', value: formatDate(reference.issue_date) });
  if (reference.reason) fields.push({ label: 'Dôvod', value: REASON_TEXTS[reference.reason] });
  return { heading: 'Dobropis k faktúre', fields };
}

/** The note as lines (a received document may end its lines with CR LF or CR); none when blank. */
function noteOf(note: string | null): string | null {
  const text = note?.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').trim();
  return text ? text : null;
}

/** The printed document of an invoice, proforma, credit note or inbound copy, as it stands. */
export function printedDocument(invoice: PrintableInvoice): PrintedDocument {
  const { content: c, totals: t } = invoice;
  const title = TITLES[c.invoice_type];
  const currency = c.currency_code;
  const money = (v: string) => `${formatAmount(v)}${NBSP}${currency}`;
  const subtitle = invoice.source === 'peppol'
    ? 'Kópia dokladu prijatého cez Peppol'
    : c.invoice_type === '325' ? 'Nie je daňový doklad' : null;

  const dates: PrintedField[] = [
    { label: 'Dátum vystavenia', value: formatDate(c.issue_date) },
    { label: 'Dátum dodania', value: formatDate(c.delivery_date ?? c.issue_date) },
  ];
  if (c.due_date) dates.push({ label: 'Dátum splatnosti', value: formatDate(c.due_date) });

  const payment: PrintedField[] = [{ label: 'Spôsob úhrady', value: PAYMENT_MEANS[c.payment_means_code] }];
  if (c.supplier_iban) payment.push({ label: 'IBAN', value: formatIban(c.supplier_iban) });
  if (c.seller_details?.bic) payment.push({ label: 'BIC (SWIFT)', value: c.seller_details.bic });
  // the symbol the QR code pays with: the document's, or the number's digits (pay-by-square.ts)
  const symbol = c.variable_symbol?.trim() || variableSymbolOf(c);
  if (symbol) payment.push({ label: 'Variabilný symbol', value: symbol });
  payment.push({ label: 'Mena', value: currency });

  const amounts = new Map(t.lines.map((l) => [l.line_number, l]));
  const lines: PrintedLine[] = c.lines.map((l) => {
    const a = amounts.get(l.line_number);
    return {
      number: String(l.line_number),
      name: l.item_name,
      quantity: formatQuantity(l.quantity),
      unit: UNITS[l.unit_code] ?? l.unit_code,
      unit_price: formatUnitPrice(l.unit_price),
      discount: a && !isZero(a.discount) ? formatAmount(a.discount) : '',
      vat_rate: lineVat(l.vat_category_code, l.vat_rate),
      net: a ? formatAmount(a.line_net) : '',
      gross: a ? formatAmount(a.line_gross_amount) : '',
    };
  });

  const vat: PrintedVatRow[] = t.vat_breakdown.map((v) => ({
    rate: vatLabel(v.vat_category_code, v.vat_rate, v.vat_exemption_reason_code),
    base: formatAmount(v.taxable_amount),
    vat: formatAmount(v.tax_amount),
    gross: formatAmount(new Dec(v.taxable_amount).plus(v.tax_amount).toFixed(2)),
  }));

  const totals: PrintedField[] = [{ label: 'Súčet položiek bez DPH', value: money(t.line_extension_amount) }];
  for (const a of t.allowances_charges) totals.push({ label: allowanceLabel(a), value: money(a.charge ? a.amount : negated(a.amount)) });
  totals.push({ label: 'Základ dane spolu', value: money(t.total_net) }, { label: 'DPH spolu', value: money(t.total_vat) }, { label: 'Celkom s DPH', value: money(t.total_gross) });
  if (!isZero(t.payable_rounding_amount)) totals.push({ label: 'Zaokrúhlenie', value: money(t.payable_rounding_amount) });

  return {
    title,
    number: c.invoice_number,
    subtitle,
    stamp: invoice.source === 'api' ? STAMPS[invoice.status] ?? null : null,
    dates,
    supplier: party('Dodávateľ', c.supplier, c.seller_details),
    buyer: party('Odberateľ', c.buyer),
    payment,
    payment_code: paymentCode(invoice),
    credit: creditBlock(invoice),
    lineHeadings: {
      number: '#', name: 'Názov položky', quantity: 'Množstvo', unit: 'MJ', unit_price: 'Jedn. cena', discount: 'Zľava',
      vat_rate: 'DPH', net: 'Bez DPH', gross: 'S DPH',
    },
    lines,
    vatHeadings: { rate: 'Sadzba DPH', base: 'Základ dane', vat: 'DPH', gross: 'Spolu' },
    vat,
    totals,
    payable: { label: c.invoice_type === '381' ? 'Suma dobropisu' : 'Na úhradu', value: money(t.amount_due) },
    note: noteOf(c.note),
    info: { title: `${title} ${c.invoice_number}`, author: c.supplier.name, subject: `${title} ${c.invoice_number} – ${c.buyer.name}` },
  };
}
