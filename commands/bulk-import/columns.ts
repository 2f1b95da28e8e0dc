/**
 * The columns of a bulk-import CSV. One row per invoice line; rows sharing `invoice_ref` make one
 * invoice. Invoice-level values may be given on the first row of the invoice only or repeated on
 * every row; a repeated value must be the same (else a row error), an empty one takes the value
 * given before. The supplier is always the company the import is for.
 */
type ColumnKind = 'text' | 'decimal' | 'date' | 'code';
type ColumnLevel = 'ref' | 'invoice' | 'line';

export interface Column {
  name: string;
  level: ColumnLevel;
  kind: ColumnKind;
  required: boolean;
  description: string;
  /** a value for the template's example rows */
  example: [string, string, string];
}

const col = (name: string, level: ColumnLevel, kind: ColumnKind, required: boolean, description: string, example: [string, string, string]): Column =>
  ({ name, level, kind, required, description, example });

export const COLUMNS: readonly Column[] = [
  col('invoice_ref', 'ref', 'text', true, 'your key of the invoice (any text up to 100 characters): rows with the same invoice_ref are the lines of one invoice', ['A-1', 'A-1', 'B-7']),
  col('invoice_number', 'invoice', 'text', false, 'empty: the next number of the workspace series is reserved', ['', '', '']),
  col('invoice_type', 'invoice', 'code', false, '380 invoice (default), 381 credit note, 325 proforma', ['380', '', '380']),
  col('issue_date', 'invoice', 'date', true, 'YYYY-MM-DD, or D.M.YYYY as Slovak Excel writes it', ['2026-03-15', '', '15.3.2026']),
  col('due_date', 'invoice', 'date', false, 'YYYY-MM-DD or D.M.YYYY', ['2026-03-29', '', '29.3.2026']),
  col('delivery_date', 'invoice', 'date', false, 'supply date when it differs from issue_date', ['', '', '']),
  col('currency_code', 'invoice', 'code', false, 'ISO 4217, default EUR', ['EUR', '', 'EUR']),
  col('customer_id', 'invoice', 'text', false, 'id of a directory customer: the buyer (buyer_* columns, when given, take precedence)', ['', '', '']),
  col('buyer_name', 'invoice', 'text', false, 'buyer legal name (needed unless customer_id is given)', ['Odberateľ s.r.o.', '', 'Kupujúci a.s.']),
  col('buyer_vat_id', 'invoice', 'text', false, 'IČ DPH (SK + 10 digits); empty for a buyer that is not VAT-registered', ['SK2020000004', '', 'SK2020000081']),
  col('buyer_ico', 'invoice', 'text', false, 'IČO, 8 digits', ['', '', '']),
  col('buyer_dic', 'invoice', 'text', false, 'DIČ, 10 digits', ['2020000004', '', '']),
  col('buyer_peppol_id', 'invoice', 'text', false, '<scheme>:<identifier>', ['', '', '']),
  col('buyer_street', 'invoice', 'text', false, '', ['Hlavná 1', '', 'Mlynská 2']),
  col('buyer_city', 'invoice', 'text', false, '', ['Košice', '', 'Žilina']),
  col('buyer_postal_code', 'invoice', 'text', false, 'NNN NN or NNNNN', ['040 01', '', '010 01']),
  col('buyer_country_code', 'invoice', 'code', false, 'ISO 3166-1 alpha-2, default SK', ['SK', '', 'SK']),
  col('supplier_iban', 'invoice', 'text', false, 'default: the company IBAN', ['', '', '']),
  col('payment_means_code', 'invoice', 'code', false, '30 SEPA credit transfer (default), 42 bank account, 48 card', ['30', '', '30']),
  col('variable_symbol', 'invoice', 'text', false, 'digits; default: the invoice number when it is all digits', ['', '', '']),
  col('note', 'invoice', 'text', false, 'printed on the invoice; may hold line breaks (quote the cell)', ['Ďakujeme za objednávku', '', '']),
  col('item_name', 'line', 'text', true, 'line text', ['Konzultácia', 'Cestovné', 'Licencia']),
  col('quantity', 'line', 'decimal', true, 'decimal point or decimal comma; negative for a return', ['2', '1,5', '1']),
  col('unit_code', 'line', 'code', false, 'UN/ECE Rec. 20, default C62 (HUR hour, DAY, KGM, MTR, …)', ['HUR', 'C62', 'C62']),
  col('unit_price', 'line', 'decimal', true, 'net price per unit; decimal point or decimal comma', ['100,00', '12.50', '1 200,00']),
  col('vat_rate', 'line', 'decimal', true, 'percent: 23, 19, 5 or 0', ['23', '23', '23']),
  col('vat_category_code', 'line', 'code', false, 'S (default), Z, E, AE, K, …; rate 0 needs Z, E, AE or K', ['S', 'S', 'S']),
  col('vat_exemption_reason_code', 'line', 'code', false, 'VATEX code, needed for E, AE, K', ['', '', '']),
  col('discount_percentage', 'line', 'decimal', false, 'percent off quantity × unit_price', ['', '', '10']),
  col('discount_amount', 'line', 'decimal', false, 'money off the line', ['', '', '']),
];

export const COLUMN_BY_NAME: ReadonlyMap<string, Column> = new Map(COLUMNS.map((c) => [c.name, c]));

/** A header cell as it is compared: trimmed, case-insensitive, spaces and hyphens as underscores ("Unit Price" = unit_price). */
export const normaliseHeader = (cell: string) => cell.trim().toLowerCase().replace(/[\s-]+/g, '_');
