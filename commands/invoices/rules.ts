/**
 * The business rules of an invoice's JSON content, checked before any UBL exists. Pure: content and
 * code lists in, findings out. A fatal finding refuses the request (the spec's invoice-validation
 * 422); a warning is reported and the invoice is accepted.
 *
 * Where EN16931 (BR-*), its code-list rules (BR-CL-*) or our Slovak Schematron (schemas/sk/SK-UBL.sch,
 * SK-*) has the same rule, its id is used, so a finding reads the same here and in the UBL
 * validation. As in SK-UBL.sch, the Slovak practice rules (SK-BR-04, SK-SVC-003, SK-SVC-010/011) apply to a
 * Slovak seller (SK VAT id or SK address) and the IČO/DIČ rules (SK-SVC-005/006) to a Slovak party, so
 * an invoice received from abroad is not judged by Slovak practice. Our own ids, for what only the
 * JSON can get wrong:
 *   SK-W-LINES  warning: more than 200 lines (the Peppol soft cap; receivers may refuse more)
 *   SK-J-01     line_number unique within the invoice
 *   SK-J-02     quantity, unit_price, vat_rate, discounts are plain decimal strings
 *   SK-J-03     a line has a discount percentage or a discount amount, not both
 *   SK-J-04     discount_percentage within 0-100
 *   SK-J-05     discount_amount not negative and not above the line's amount
 *   SK-J-06     dates are real YYYY-MM-DD dates
 *   SK-J-07     warning: due_date before issue_date
 *   SK-J-08     a party's IČ DPH is SK + its DIČ
 *   SK-J-09     a Peppol participant id is <4-digit scheme>:<identifier>
 *   SK-J-10     warning: a foreign IBAN has a valid shape and ISO 13616 check digits
 *   SK-J-11     warning: a buyer without VAT id has neither IČO nor DIČ
 * and, from Peppol BIS 3.0.22, SK-R-002..007 (warnings: the addresses of a domestic invoice,
 * slovak-address.ts).
 */
import { TAX_CATEGORY_CODES, ibanCurrency, type CodeLists } from './code-lists.ts';
import {
  INVOICE_TYPE_CODES,
  PAYMENT_MEANS_CODES,
  SLOVAK_STANDARD_RATES,
  type InvoiceContent,
  type InvoiceLine,
  type InvoiceTotals,
  type Party,
  type RuleFinding,
  type VatCategoryCode,
} from './model.ts';
import { Dec, HUNDRED, ZERO, formatDecimal, parseDecimal, round2 } from './money.ts';
import { slovakAddressWarnings } from './slovak-address.ts';
import { computeTotals, vatRowOf, type VatRow } from './totals.ts';
import {
  dicProblem,
  foreignVatIdProblem,
  ibanMod97,
  icDphProblem,
  icoProblem,
  normaliseVatId,
  peppolIdProblem,
  skIbanProblem,
} from '../shared/slovak-identifiers.ts';

const SOFT_LINE_CAP = 200;

type Emit = (rule: string, message: string, field?: string) => void;

/** `totals`: the content's totals when the caller has them (computed here otherwise). */
export function checkInvoice(content: InvoiceContent, lists: CodeLists, totals: InvoiceTotals | null = null): RuleFinding[] {
  const findings: RuleFinding[] = [];
  const emitter =
    (severity: RuleFinding['severity']): Emit =>
    (rule, message, field) =>
      findings.push(field === undefined ? { rule, message, severity } : { rule, message, severity, field });
  const fatal = emitter('fatal');
  const warning = emitter('warning');
  const sellerIsSlovak = isSlovakSeller(content.supplier);
  const vatIdsCarried = carriesVatIds(content);

  checkDocument(content, lists, fatal, warning);
  checkPayment(content, sellerIsSlovak, fatal, warning);
  checkParty(content.supplier, 'supplier', lists, vatIdsCarried, fatal, warning);
  checkParty(content.buyer, 'buyer', lists, vatIdsCarried, fatal, warning);
  for (const w of slovakAddressWarnings(content)) warning(w.rule, w.message, w.field);
  const seen = new Set<number>();
  content.lines.forEach((line, i) => {
    if (seen.has(line.line_number)) {
      fatal('SK-J-01', `line_number ${line.line_number} is used by more than one line`, `lines[${i}].line_number`);
    }
    seen.add(line.line_number);
    checkLine(line, `lines[${i}]`, lists, sellerIsSlovak, fatal);
  });
  checkNotSubjectToVat(content.lines, fatal);
  checkOneBreakdownRow(content.lines, fatal);
  checkCategoryParties(content, vatIdsCarried, fatal);
  // BR-CO-25's context is the UBL Invoice only (3.0.19 CEN; 3.0.21 dropped it): a credit note is a
  // refund and needs no due date. The totals need every decimal valid; when one is not, that finding
  // already refuses the invoice.
  const credit = content.invoice_type === '381';
  if (!credit && !findings.some((f) => f.rule === 'SK-J-02') && content.lines.length > 0) {
    const due = parseDecimal((totals ?? computeTotals(content)).amount_due) ?? ZERO;
    if (due.greaterThan(ZERO) && !content.due_date) {
      fatal('BR-CO-25', 'A positive amount due needs a due_date (payment due date, BT-9)', 'due_date');
    }
  }
  return findings;
}

/**
 * BR-O-02 to BR-O-04: a document with a line not subject to VAT (category O) contains no VAT
 * identifier of the seller, its tax representative or the buyer. The content keeps the parties'
 * vat_id; the UBL builder leaves them out, and the rules judge the parties as the document shows them.
 */
export function carriesVatIds(content: Pick<InvoiceContent, 'lines'>): boolean {
  return !content.lines.some((l) => l.vat_category_code === 'O');
}

/** SK-UBL.sch's $sellerIsSlovak: an SK VAT id or an SK address. */
function isSlovakSeller(supplier: Party): boolean {
  return normaliseVatId(supplier.vat_id).startsWith('SK') || supplier.country_code.trim().toUpperCase() === 'SK';
}

function checkDocument(content: InvoiceContent, lists: CodeLists, fatal: Emit, warning: Emit): void {
  if (content.lines.length === 0) fatal('BR-16', 'An invoice needs at least one line', 'lines');
  if (content.lines.length > SOFT_LINE_CAP) {
    warning(
      'SK-W-LINES',
      `The invoice has ${content.lines.length} lines; Peppol receivers may refuse more than ${SOFT_LINE_CAP}`,
      'lines',
    );
  }
  if (!(INVOICE_TYPE_CODES as readonly string[]).includes(content.invoice_type)) {
    fatal('BR-CL-01', `invoice_type must be one of ${INVOICE_TYPE_CODES.join(', ')}`, 'invoice_type');
  }
  if (!lists.currencyCodes.has(content.currency_code)) {
    fatal('BR-CL-04', `currency_code ${JSON.stringify(content.currency_code)} is not an ISO 4217 currency`, 'currency_code');
  }
  const dates = (['issue_date', 'due_date', 'delivery_date'] as const).filter((name) => {
    const value = content[name];
    if (value === null || (name !== 'issue_date' && value === '')) return false;
    if (isDate(value)) return true;
    fatal('SK-J-06', `${name} must be a date in the form YYYY-MM-DD`, name);
    return false;
  });
  if (dates.includes('issue_date') && dates.includes('due_date') && (content.due_date ?? '') < content.issue_date) {
    warning('SK-J-07', 'due_date is before issue_date', 'due_date');
  }
}

function checkPayment(content: InvoiceContent, sellerIsSlovak: boolean, fatal: Emit, warning: Emit): void {
  if (!(PAYMENT_MEANS_CODES as readonly string[]).includes(content.payment_means_code)) {
    fatal('BR-CL-16', `payment_means_code must be one of ${PAYMENT_MEANS_CODES.join(', ')}`, 'payment_means_code');
  }
  const iban = (content.supplier_iban ?? '').replace(/\s+/g, '').toUpperCase();
  if (iban === '') {
    if (content.payment_means_code === '30') {
      fatal('BR-61', 'Payment by credit transfer (payment_means_code 30) needs the supplier_iban', 'supplier_iban');
    }
  } else if (iban.startsWith('SK')) {
    const problem = skIbanProblem(iban);
    if (problem) fatal(/^SK\d{22}$/.test(iban) ? 'SK-SVC-002' : 'SK-SVC-001', `supplier_iban: ${problem}`, 'supplier_iban');
  } else if (!/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(iban) || ibanMod97(iban) !== 1) {
    // a warning: a foreign account (BT-84) need not be an IBAN, as the official Peppol examples show
    warning('SK-J-10', 'supplier_iban does not look like a valid IBAN (shape or check digits)', 'supplier_iban');
  }
  if (sellerIsSlovak && /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(iban)) {
    const accountCurrency = ibanCurrency(iban.slice(0, 2));
    if (accountCurrency !== null && accountCurrency !== content.currency_code) {
      fatal(
        'SK-SVC-003',
        `The account of supplier_iban is in ${accountCurrency} by its country, but the invoice is in ${content.currency_code}`,
        'currency_code',
      );
    }
  }
  const symbol = content.variable_symbol?.trim() ?? '';
  if (sellerIsSlovak && symbol !== '' && !/^\d{1,10}$/.test(symbol)) {
    warning('SK-BR-04', 'The variable symbol should contain only digits (at most 10)', 'variable_symbol');
  }
}

function checkParty(
  party: Party,
  at: 'supplier' | 'buyer',
  lists: CodeLists,
  vatIdCarried: boolean,
  fatal: Emit,
  warning: Emit,
): void {
  const country = party.country_code.trim().toUpperCase();
  if (!lists.countryCodes.has(country)) {
    fatal('BR-CL-14', `${at}.country_code ${JSON.stringify(party.country_code)} is not an ISO 3166-1 country`, `${at}.country_code`);
  }
  const vatId = normaliseVatId(party.vat_id);
  const ico = party.ico?.trim() ?? '';
  const dic = party.dic?.trim() ?? '';
  if (vatId.startsWith('SK')) {
    const problem = icDphProblem(vatId);
    if (problem) fatal('SK-SVC-004', `${at}.vat_id: ${problem}`, `${at}.vat_id`);
  } else if (vatId !== '') {
    const problem = foreignVatIdProblem(vatId);
    if (problem) fatal('BR-CO-09', `${at}.vat_id: ${problem}`, `${at}.vat_id`);
  }
  if (country === 'SK' && dic !== '') {
    const problem = dicProblem(dic);
    if (problem) fatal('SK-SVC-005', `${at}.dic: ${problem}`, `${at}.dic`);
    else if (/^SK\d{10}$/.test(vatId) && vatId.slice(2) !== dic.replace(/\s+/g, '')) {
      fatal('SK-J-08', `${at}.vat_id (IČ DPH) must be SK followed by the party's DIČ ${dic}`, `${at}.vat_id`);
    }
  }
  if (country === 'SK' && ico !== '') {
    const problem = icoProblem(ico);
    if (problem) fatal('SK-SVC-006', `${at}.ico: ${problem}`, `${at}.ico`);
  }
  if (party.peppol_id) checkPeppolId(party.peppol_id.trim(), vatId, at, fatal);
  const identifiedByVat = vatIdCarried && vatId !== '';
  if (at === 'supplier' && !identifiedByVat && ico === '') {
    if (vatId === '') fatal('BR-CO-26', 'The supplier needs a vat_id (IČ DPH) or an ico (IČO)', 'supplier');
    else {
      const why = 'An invoice not subject to VAT (category O) carries no VAT identifier (BR-O-02), so the supplier needs an ico (IČO)';
      fatal('BR-CO-26', why, 'supplier.ico');
    }
  }
  if (at === 'buyer' && !identifiedByVat && ico === '' && dic === '') {
    warning('SK-J-11', 'A buyer without vat_id should be identified by its ico or dic', 'buyer');
  }
}

function checkPeppolId(peppolId: string, vatId: string, at: string, fatal: Emit): void {
  const field = `${at}.peppol_id`;
  const match = /^(\d{4}):(\S+)$/.exec(peppolId);
  if (!match) {
    fatal('SK-J-09', `${field}: ${peppolIdProblem(peppolId) ?? 'not a participant identifier'}`, field);
    return;
  }
  const [, scheme, id = ''] = match;
  const vatDigits = /^SK\d{10}$/.test(vatId) ? vatId.slice(2) : null;
  if (scheme === '0245') {
    if (!/^\d{10}$/.test(id)) fatal('SK-SVC-007', `${field}: a 0245 participant id must be the 10-digit DIČ`, field);
    else if (vatDigits !== null && id !== vatDigits) {
      fatal('SK-SVC-008', `${field}: the participant DIČ must be the digits of the party's IČ DPH (${vatDigits})`, field);
    }
  } else if (scheme === '9950' && id.startsWith('sk')) {
    if (!/^sk\d{10}svctest$/.test(id) || (vatDigits !== null && id.slice(2, 12) !== vatDigits)) {
      fatal('SK-SVC-009', `${field}: a sandbox participant id must be 9950:sk + the 10 digits of the IČ DPH + svctest`, field);
    }
  }
}

function checkLine(line: InvoiceLine, at: string, lists: CodeLists, sellerIsSlovak: boolean, fatal: Emit): void {
  const number = (name: 'quantity' | 'unit_price' | 'vat_rate' | 'discount_percentage' | 'discount_amount') => {
    const value = line[name];
    if (value === null || value === '') return null;
    const parsed = parseDecimal(value);
    if (parsed === null) fatal('SK-J-02', `${name} must be a decimal string such as "12.50"`, `${at}.${name}`);
    return parsed;
  };
  const quantity = number('quantity');
  const price = number('unit_price');
  const rate = number('vat_rate');
  const percentage = number('discount_percentage');
  const amount = number('discount_amount');
  if (line.quantity === '') fatal('SK-J-02', 'quantity is required', `${at}.quantity`);
  if (line.unit_price === '') fatal('SK-J-02', 'unit_price is required', `${at}.unit_price`);
  if (line.vat_rate === '') fatal('SK-J-02', 'vat_rate is required', `${at}.vat_rate`);

  if (!lists.unitCodes.has(line.unit_code)) {
    fatal('BR-CL-23', `unit_code ${JSON.stringify(line.unit_code)} is not in UN/ECE Recommendation 20 or 21`, `${at}.unit_code`);
  }
  if (price?.isNegative()) fatal('BR-27', 'unit_price must not be negative', `${at}.unit_price`);
  checkDiscount(at, quantity, price, percentage, amount, fatal);
  checkVat(line, at, rate, lists, sellerIsSlovak, fatal);
}

function checkDiscount(
  at: string,
  quantity: Dec | null,
  price: Dec | null,
  percentage: Dec | null,
  amount: Dec | null,
  fatal: Emit,
): void {
  if (percentage !== null && amount !== null) {
    fatal('SK-J-03', 'Give a discount_percentage or a discount_amount, not both', `${at}.discount_amount`);
  }
  if (percentage !== null && (percentage.isNegative() || percentage.greaterThan(HUNDRED))) {
    fatal('SK-J-04', 'discount_percentage must be between 0 and 100', `${at}.discount_percentage`);
  }
  if (amount === null) return;
  if (amount.isNegative()) fatal('SK-J-05', 'discount_amount must not be negative', `${at}.discount_amount`);
  else if (quantity !== null && price !== null && round2(amount).greaterThan(round2(quantity.times(price)).abs())) {
    fatal('SK-J-05', `discount_amount is more than the line's amount (quantity × unit_price)`, `${at}.discount_amount`);
  }
}

/** The rate each zero-rated category must have, and the rule that says so. */
const ZERO_RATE_RULES: Readonly<Record<string, string>> = {
  Z: 'BR-Z-05',
  E: 'BR-E-05',
  AE: 'BR-AE-05',
  K: 'BR-IC-05',
  G: 'BR-G-05',
  O: 'BR-O-05',
};
const EXEMPTION_REASON_RULES: Readonly<Record<string, string>> = {
  E: 'BR-E-10',
  AE: 'BR-AE-10',
  K: 'BR-IC-10',
  G: 'BR-G-10',
  O: 'BR-O-10',
};
/** Categories that must not carry an exemption reason (BR-S-10, BR-Z-10, BR-AF-10, BR-AG-10). */
const NO_EXEMPTION_RULES: Readonly<Record<string, string>> = { S: 'BR-S-10', Z: 'BR-Z-10', L: 'BR-AF-10', M: 'BR-AG-10' };
/** Peppol P0104-P0111: these VATEX codes belong to one category each. */
const VATEX_OWNERS: Readonly<Record<string, { category: VatCategoryCode; rule: string }>> = {
  'VATEX-EU-G': { category: 'G', rule: 'PEPPOL-EN16931-P0104' },
  'VATEX-EU-O': { category: 'O', rule: 'PEPPOL-EN16931-P0105' },
  'VATEX-EU-IC': { category: 'K', rule: 'PEPPOL-EN16931-P0106' },
  'VATEX-EU-AE': { category: 'AE', rule: 'PEPPOL-EN16931-P0107' },
  'VATEX-EU-D': { category: 'E', rule: 'PEPPOL-EN16931-P0108' },
  'VATEX-EU-F': { category: 'E', rule: 'PEPPOL-EN16931-P0109' },
  'VATEX-EU-I': { category: 'E', rule: 'PEPPOL-EN16931-P0110' },
  'VATEX-EU-J': { category: 'E', rule: 'PEPPOL-EN16931-P0111' },
};
const SLOVAK_RATES = SLOVAK_STANDARD_RATES.map((r) => new Dec(r));

function checkVat(line: InvoiceLine, at: string, rate: Dec | null, lists: CodeLists, sellerIsSlovak: boolean, fatal: Emit): void {
  const category = line.vat_category_code;
  if (!TAX_CATEGORY_CODES.has(category)) {
    fatal('BR-CL-18', `vat_category_code ${JSON.stringify(category)} is not a UNCL 5305 tax category`, `${at}.vat_category_code`);
    return;
  }
  const field = `${at}.vat_rate`;
  if (category === 'S' && rate !== null) {
    if (!rate.greaterThan(ZERO)) {
      fatal('BR-S-05', 'Standard-rated VAT (category S) needs a rate above 0', field);
      if (sellerIsSlovak && rate.isZero()) {
        fatal('SK-SVC-010', 'vat_rate 0 with category S: use Z, E, AE or K for zero-rated, exempt, reverse-charge or intra-community supplies', field);
      }
    }
    if (sellerIsSlovak && !rate.isZero() && !SLOVAK_RATES.some((r) => r.equals(rate))) {
      fatal('SK-SVC-011', `A Slovak standard VAT rate (category S) is 5, 19 or 23 %, not ${line.vat_rate}`, field);
    }
  }
  const zeroRule = ZERO_RATE_RULES[category];
  if (zeroRule && rate !== null && !rate.isZero()) {
    fatal(zeroRule, `Category ${category} has a VAT rate of 0, not ${line.vat_rate}`, field);
  }
  const reason = line.vat_exemption_reason_code?.trim() ?? '';
  const reasonField = `${at}.vat_exemption_reason_code`;
  const reasonRule = EXEMPTION_REASON_RULES[category];
  if (reasonRule && reason === '') {
    fatal(reasonRule, `Category ${category} needs a vat_exemption_reason_code (a VATEX code such as VATEX-EU-AE)`, reasonField);
  }
  const forbidden = NO_EXEMPTION_RULES[category];
  if (forbidden && reason !== '') fatal(forbidden, `Category ${category} has no vat_exemption_reason_code`, reasonField);
  if (reason !== '' && !lists.vatexCodes.has(reason.toUpperCase())) {
    fatal('BR-CL-22', `vat_exemption_reason_code ${JSON.stringify(reason)} is not in the VATEX code list`, reasonField);
  }
  const owner = VATEX_OWNERS[reason.toUpperCase()];
  if (owner && owner.category !== category) {
    fatal(owner.rule, `vat_exemption_reason_code ${reason.toUpperCase()} is for category ${owner.category}, not ${category}`, reasonField);
  }
}

/**
 * BR-O-11 (and BR-O-12): a document with a category O line has no VAT breakdown row, and so no
 * line, of another category. Reported once, at the first line of another category.
 */
function checkNotSubjectToVat(lines: InvoiceLine[], fatal: Emit): void {
  if (carriesVatIds({ lines })) return;
  const others = lines.flatMap((l, i) => (l.vat_category_code !== 'O' && TAX_CATEGORY_CODES.has(l.vat_category_code) ? [i] : []));
  const [first] = others;
  if (first === undefined) return;
  const categories = [...new Set(others.map((i) => lines[i]?.vat_category_code))].join(', ');
  fatal(
    'BR-O-11',
    `An invoice with lines not subject to VAT (category O) has no lines of another VAT category; found ${categories} (${others.length} line(s))`,
    `lines[${first}].vat_category_code`,
  );
}

/**
 * The categories EN16931 allows exactly one VAT breakdown row of. A row is one (category, rate,
 * exemption reason) of the lines (totals.ts), so two E lines with different VATEX codes make two
 * E rows: a document that can never validate. S has a row per rate (BR-S-08); L and M need at
 * least one row (BR-AF-01, BR-AG-01), so several are fine.
 */
const ONE_ROW_RULES: Partial<Record<VatCategoryCode, string>> = {
  Z: 'BR-Z-01',
  E: 'BR-E-01',
  AE: 'BR-AE-01',
  K: 'BR-IC-01',
  G: 'BR-G-01',
  O: 'BR-O-01',
};

function checkOneBreakdownRow(lines: InvoiceLine[], fatal: Emit): void {
  const rows = new Map<VatCategoryCode, { row: VatRow; index: number }[]>();
  lines.forEach((line, index) => {
    const rate = parseDecimal(line.vat_rate);
    if (ONE_ROW_RULES[line.vat_category_code] === undefined || rate === null) return; // SK-J-02 reports a bad rate
    const row = vatRowOf(line, rate);
    const known = rows.get(row.category) ?? [];
    if (!known.some((r) => r.row.key === row.key)) known.push({ row, index });
    rows.set(row.category, known);
  });
  for (const [category, known] of rows) {
    const [first, second] = known;
    const rule = ONE_ROW_RULES[category];
    if (first === undefined || second === undefined || rule === undefined) continue;
    const field = first.row.rate.equals(second.row.rate) ? 'vat_exemption_reason_code' : 'vat_rate';
    const described = known
      .map(({ row, index }) => `lines[${index}] ${formatDecimal(row.rate)} % ${row.exemption ?? 'without exemption reason'}`)
      .join(', ');
    fatal(
      rule,
      `Category ${category} may have only one VAT breakdown row, so all its lines need the same vat_rate and vat_exemption_reason_code; found ${described}`,
      `lines[${second.index}].${field}`,
    );
  }
}

/**
 * Whom a document with a line of each category must identify, and by what, as the UBL carries it:
 * vat_id as the VAT identifier (BT-31, BT-48), the supplier's dic as its tax registration (BT-32, a
 * second PartyTaxScheme), the buyer's ico as its legal registration (BT-47). Lines only: the
 * document-level allowances and charges are the ZZZ corrections, in the lines' own categories. O
 * needs none (it names none, BR-O-02).
 */
const SELLER_TAX_ID_RULES: Partial<Record<VatCategoryCode, string>> = {
  S: 'BR-S-02',
  Z: 'BR-Z-02',
  E: 'BR-E-02',
  AE: 'BR-AE-02',
  L: 'BR-AF-02',
  M: 'BR-AG-02',
};
const SELLER_VAT_ID_RULES: Partial<Record<VatCategoryCode, string>> = { K: 'BR-IC-02', G: 'BR-G-02' };

function checkCategoryParties(content: InvoiceContent, vatIdsCarried: boolean, fatal: Emit): void {
  const present = (value: string | null) => (value?.trim() ?? '') !== '';
  const sellerVat = vatIdsCarried && normaliseVatId(content.supplier.vat_id) !== '';
  const sellerTax = sellerVat || present(content.supplier.dic);
  const buyerVat = vatIdsCarried && normaliseVatId(content.buyer.vat_id) !== '';
  const categories = new Set(content.lines.map((l) => l.vat_category_code));
  for (const category of categories) {
    const taxRule = SELLER_TAX_ID_RULES[category];
    if (taxRule && !sellerTax) {
      fatal(taxRule, `A line of category ${category} needs the supplier's vat_id (IČ DPH) or dic (DIČ)`, 'supplier.vat_id');
    }
    const vatRule = SELLER_VAT_ID_RULES[category];
    if (vatRule && !sellerVat) fatal(vatRule, `A line of category ${category} needs the supplier's vat_id (IČ DPH)`, 'supplier.vat_id');
  }
  if (categories.has('AE') && !buyerVat && !present(content.buyer.ico)) {
    fatal('BR-AE-02', "A reverse-charge line (category AE) needs the buyer's vat_id or ico", 'buyer.vat_id');
  }
  if (categories.has('K') && !buyerVat) {
    fatal('BR-IC-02', "An intra-community supply (category K) needs the buyer's vat_id", 'buyer.vat_id');
  }
}

/** A real calendar date in the form YYYY-MM-DD. */
function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
