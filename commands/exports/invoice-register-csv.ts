import { csvCell, type CsvCellKind, type CsvDialect } from './csv-cells.ts';

/**
 * The columns of the invoice register's CSV export, in order, with how each cell is written
 * (csv-cells.ts): the three totals are amounts (numbers), everything else is text.
 */
export const INVOICE_CSV_COLUMNS = [
  { name: 'id', kind: 'text' },
  { name: 'invoice_number', kind: 'text' },
  { name: 'invoice_type', kind: 'text' },
  { name: 'status', kind: 'text' },
  { name: 'issue_date', kind: 'text' },
  { name: 'due_date', kind: 'text' },
  { name: 'currency_code', kind: 'text' },
  { name: 'supplier_name', kind: 'text' },
  { name: 'buyer_name', kind: 'text' },
  { name: 'buyer_vat_id', kind: 'text' },
  { name: 'total_net', kind: 'amount' },
  { name: 'total_vat', kind: 'amount' },
  { name: 'total_gross', kind: 'amount' },
] as const satisfies readonly { name: string; kind: CsvCellKind }[];

type InvoiceCsvColumn = (typeof INVOICE_CSV_COLUMNS)[number]['name'];
export type InvoiceCsvSource = Record<InvoiceCsvColumn, string | null>;

export const invoiceCsvHeader = (): string[] => INVOICE_CSV_COLUMNS.map((c) => c.name);

/** One register row as the cells of its CSV record. */
export function invoiceCsvRecord(row: InvoiceCsvSource, dialect: CsvDialect): string[] {
  return INVOICE_CSV_COLUMNS.map((c) => csvCell(c.kind, row[c.name], dialect));
}
