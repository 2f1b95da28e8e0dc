import type { BulkImportRowError } from '../../events/bulk-import.ts';
import { COLUMNS, COLUMN_BY_NAME, normaliseHeader, type Column } from './columns.ts';

/** One CSV record: `row` is its 1-based number in the file (the header is row 1), which is the spreadsheet's row too. */
export interface CsvRecord {
  row: number;
  cells: string[];
}

/** Which column each cell of a row is (null: a cell under an empty header cell, ignored). */
export type Header = readonly (Column | null)[];

/**
 * Row 1 is the header. Names compare without case and surrounding space ("Unit Price" is
 * unit_price); every required column must be there; an unknown or repeated name makes the file
 * unusable (a typo would otherwise drop a column silently). Empty header cells (a spreadsheet's
 * trailing separators) are ignored, and so are the cells under them.
 */
export function readHeader(record: CsvRecord): { header: Header } | { errors: BulkImportRowError[] } {
  if (record.cells.every((c) => c.trim() === '')) return { errors: [{ row: record.row, column: null, message: 'row 1 is empty: it must be the header (the template\'s first row)' }] };
  const errors: BulkImportRowError[] = [];
  const seen = new Set<string>();
  const header = record.cells.map((cell): Column | null => {
    const name = normaliseHeader(cell);
    if (name === '') return null;
    const column = COLUMN_BY_NAME.get(name);
    if (!column) {
      errors.push({ row: record.row, column: cell.trim(), message: `unknown column "${cell.trim()}"; the columns are those of the template (GET /invoices/bulk-import/template.csv)` });
      return null;
    }
    if (seen.has(name)) errors.push({ row: record.row, column: name, message: `column ${name} appears twice` });
    seen.add(name);
    return column;
  });
  for (const column of COLUMNS) {
    if (column.required && !seen.has(column.name)) errors.push({ row: record.row, column: column.name, message: `required column ${column.name} is missing` });
  }
  return errors.length > 0 ? { errors } : { header };
}
