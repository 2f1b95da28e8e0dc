// Sample documents for the PDF tests, the bench and docs/: a 1-line invoice, an invoice of n lines,
// a credit note, each with the Slovak pangram where a buyer would read it.
import type { PrintableInvoice } from '../../commands/exports/printed-document.ts';
import type { InvoiceContent, InvoiceLine } from '../../commands/invoices/model.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';

export const PANGRAM = 'Kŕdeľ šťastných ďatľov učí pri ústí Váhu mĺkveho koňa obhrýzať kôru a žrať čerstvé mäso.';

const supplier = {
  name: 'Ďatľova účtovná kancelária s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893', peppol_id: '9950:sk2020273893svctest',
  street: 'Štúrova 27', city: 'Bratislava – Staré Mesto', postal_code: '811 02', country_code: 'SK',
};
const buyer = {
  name: PANGRAM, vat_id: 'SK2020000004', ico: '12345679', dic: '2020000004', peppol_id: null,
  street: 'Hlavná 1', city: 'Košice', postal_code: '040 01', country_code: 'SK',
};

/** The supplier's company profile as an invoice carries it (issue 40): register entry, contact, BIC. */
export const SELLER_DETAILS = {
  additional_street: 'Budova Ďateľ, 3. poschodie',
  register_entry: 'zapísaná v Obchodnom registri Okresného súdu Bratislava I, oddiel Sro, vložka č. 12345/B',
  bic: 'SUBASKBX', contact_name: 'Jana Nováková', contact_email: 'fakturacia@datel.example.sk', contact_phone: '+421 2 1234 5678',
};

const ITEMS = ['Konzultácia – daňové priznanie', 'Vedenie podvojného účtovníctva za mesiac', 'Spracovanie miezd (do 10 zamestnancov)', 'Ročná účtovná závierka', 'Cestovné náhrady', 'Školenie: e-fakturácia a Peppol v praxi pre malé a stredné podniky na Slovensku'];

function line(n: number, item_name: string, over: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    line_number: n, item_name, quantity: String((n % 7) + 1), unit_code: n % 3 === 0 ? 'C62' : 'HUR', unit_price: `${(n * 13.37 + 20).toFixed(2)}`,
    vat_rate: n % 5 === 0 ? '5' : '23', vat_category_code: 'S', vat_exemption_reason_code: null,
    discount_percentage: n % 4 === 0 ? '10' : null, discount_amount: null, ...over,
  };
}

export function invoiceContent(lines: number, over: Partial<InvoiceContent> = {}): InvoiceContent {
  return {
    invoice_number: '2026000042', invoice_type: '380', issue_date: '2026-03-05', due_date: '2026-03-19', delivery_date: '2026-03-02', currency_code: 'EUR',
    supplier, buyer, customer_id: null, supplier_iban: 'SK3112000000198742637541', seller_details: SELLER_DETAILS, payment_means_code: '30', variable_symbol: '2026000042',
    note: `${PANGRAM}\nĎakujeme za spoluprácu.`, buyer_reference: '2026000042', order_reference: null, billing_reference: null,
    lines: Array.from({ length: lines }, (_, i) => line(i + 1, i === 0 ? PANGRAM : ITEMS[i % ITEMS.length]!)),
    ...over,
  };
}

export function printableInvoice(lines: number, over: Partial<InvoiceContent> = {}): PrintableInvoice {
  const content = invoiceContent(lines, over);
  return { status: 'delivered', source: 'api', content, totals: computeTotals(content), credited_invoice: null };
}

/** A price correction of 2026000042, two VAT rates, with the ZZZ correction its tiny lines need. */
export function printableCreditNote(): PrintableInvoice {
  const content = invoiceContent(0, {
    invoice_type: '381', invoice_number: 'DOB-2026-7', issue_date: '2026-03-20', due_date: null, delivery_date: null, variable_symbol: '2026000042',
    billing_reference: { invoice_number: '2026000042', issue_date: '2026-03-05' },
    note: `Oprava ceny – faktúra č. 2026000042 zo dňa 05.03.2026\n${PANGRAM}`,
    lines: [
      line(1, 'Oprava ceny (DPH 23 %)', { quantity: '1', unit_code: 'C62', unit_price: '40.65', discount_percentage: null }),
      line(2, 'Zľava za oneskorenie', { quantity: '1', unit_code: 'C62', unit_price: '0.02', discount_percentage: null }),
      line(3, 'Zľava za oneskorenie', { quantity: '1', unit_code: 'C62', unit_price: '0.02', discount_percentage: null }),
      line(4, 'Oprava ceny (DPH 5 %)', { quantity: '1', unit_code: 'C62', unit_price: '9.52', vat_rate: '5', discount_percentage: null }),
    ],
  });
  return { status: 'delivered', source: 'api', content, totals: computeTotals(content), credited_invoice: { invoice_number: '2026000042', issue_date: '2026-03-05', reason: 'price_correction' } };
}

/** A name or phrase in each script a European invoice may carry, as a buyer would write it. */
export const SCRIPTS = {
  latin: 'Zażółć gęślą jaźń – Größe Straße – Ærø Øster – Şişli İstanbul',
  greek: 'Ελληνική Εταιρεία Εμπορίου Α.Ε.',
  cyrillic: 'ООО «Ромашка» – Българска търговска компания ЕООД',
  arabic: 'شركة الأمل للتجارة العامة',
  hebrew: 'חברת השלום בע״מ',
  thai: 'บริษัท น้ำดี จำกัด',
  chinese: '华为技术有限公司',
  japanese: 'ひらがなとカタカナ株式会社',
} as const;

/** A character no embedded font draws. */
export const EMOJI = '😀';
