/**
 * How a value becomes a CSV cell of an export (formula injection and numbers).
 *
 * - A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula (and some read a
 *   leading tab or CR the same way): a text cell starting with one of them is prefixed with `'`,
 *   which spreadsheets show as text and do not run. Every cell that is not an amount is text here
 *   (names, numbers, codes, dates), so nothing a client typed can run.
 * - Amounts stay numbers: a plain decimal ("-12.50") is written as it is, with the dialect's
 *   decimal mark, so a spreadsheet sums it and a credit's minus is a sign, not a formula. A value
 *   that is not a plain decimal is treated as text (escaped), whatever its column says.
 * - Dialects: `rfc4180` (comma, decimal point; the default, what programs read) and `excel-sk`
 *   (semicolon, decimal comma: what Excel in a Slovak locale opens with a double click, amounts
 *   still numeric there).
 */
type CsvDialectName = 'rfc4180' | 'excel-sk';
export interface CsvDialect {
  name: CsvDialectName;
  delimiter: ',' | ';';
  decimalMark: '.' | ',';
}

export const CSV_DIALECTS: Readonly<Record<CsvDialectName, CsvDialect>> = {
  rfc4180: { name: 'rfc4180', delimiter: ',', decimalMark: '.' },
  'excel-sk': { name: 'excel-sk', delimiter: ';', decimalMark: ',' },
};

export type CsvCellKind = 'text' | 'amount';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A text cell: a value a spreadsheet would run as a formula is prefixed with `'`; null is empty. */
export function textCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** An amount cell: a plain decimal stays a number (in the dialect's decimal mark); anything else is text. */
export function amountCell(value: string | null | undefined, dialect: CsvDialect): string {
  if (value === null || value === undefined) return '';
  if (!PLAIN_DECIMAL.test(value)) return textCell(value);
  return dialect.decimalMark === '.' ? value : value.replace('.', ',');
}

export function csvCell(kind: CsvCellKind, value: string | null | undefined, dialect: CsvDialect): string {
  return kind === 'amount' ? amountCell(value, dialect) : textCell(value);
}
