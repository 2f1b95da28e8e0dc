import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { CsvRecord } from '../../../commands/bulk-import/header.ts';
import { BULK_IMPORT_LIMITS } from '../../../commands/bulk-import/limits.ts';
import type { BulkImportRowError } from '../../../events/bulk-import.ts';

/** Text handed to the parser at a time: the file streams through csv-parse instead of being split in one go. */
const PIECE = 64 * 1024;

/**
 * The separator of a file: `;` (Slovak Excel's "CSV (oddelený bodkočiarkou)") or `,`, whichever
 * the header line holds more of; header names hold neither.
 */
export function detectDelimiter(text: string): ';' | ',' {
  const end = text.search(/\r?\n/);
  const header = end < 0 ? text : text.slice(0, end);
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

function* pieces(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += PIECE) yield text.slice(at, at + PIECE);
}

type CsvRead = { records: CsvRecord[] } | { errors: BulkImportRowError[]; dataRows: number };

/**
 * Every record of a file with its 1-based row number (the header is row 1; a quoted cell's line
 * breaks stay inside its row, as in a spreadsheet). Rows may have fewer cells than the header
 * (the rest are empty); quotes inside an unquoted cell are kept as text. A malformed file (a quote
 * never closed) or one over the row limit is unusable: errors, no records.
 */
export async function readCsv(text: string): Promise<CsvRead> {
  const parser = Readable.from(pieces(text)).pipe(parse({
    delimiter: detectDelimiter(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true,
  }));
  const records: CsvRecord[] = [];
  let dataRows = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      const row = records.length + 1;
      if (row > 1 && cells.some((c) => c.trim() !== '') && ++dataRows > BULK_IMPORT_LIMITS.maxDataRows) {
        parser.destroy();
        return { errors: [{ row, column: null, message: `the file has more than ${BULK_IMPORT_LIMITS.maxDataRows} data rows: split it` }], dataRows };
      }
      records.push({ row, cells });
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const row = (typeof error['records'] === 'number' ? error['records'] : records.length) + 1;
    return { errors: [{ row, column: null, message: `malformed CSV: ${error.message}` }], dataRows };
  }
  if (records.length === 0) return { errors: [{ row: 1, column: null, message: 'the file is empty: row 1 must be the header' }], dataRows: 0 };
  return { records };
}
