/**
 * Cell values as spreadsheets write them, turned into the invoice API's values. Slovak Excel saves
 * "CSV (oddelený bodkočiarkou)" with `;` between cells, a decimal comma and dates as 15.3.2026;
 * English Excel uses `,`, a decimal point and ISO or its own dates. Both are read.
 */

/** Spaces a spreadsheet puts between digit groups: space, no-break space, narrow no-break space. */
const GROUPING = /[ \u00a0\u202f]/g;

export type Parsed = { ok: true; value: string } | { ok: false; message: string };

/**
 * A decimal with a point or a comma as the decimal separator ("1,5", "1.5", "-2"), digit groups
 * separated by spaces allowed ("1 200,50"). A value holding both a point and a comma is refused:
 * "1.200,50" and "1,200.50" mean different things in different locales, and guessing would
 * create a wrong invoice.
 */
export function parseDecimal(cell: string): Parsed {
  const compact = cell.trim().replace(GROUPING, '');
  if (compact.includes('.') && compact.includes(',')) {
    return { ok: false, message: `"${cell}" holds both a point and a comma: write the decimal separator only (1200,50 or 1200.50); group digits with spaces if at all` };
  }
  const value = compact.replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(value)) return { ok: false, message: `"${cell}" is not a decimal number (write 1200,50 or 1200.50)` };
  return { ok: true, value };
}

/** A date as YYYY-MM-DD, or D.M.YYYY as Slovak Excel writes it (spaces after the dots allowed). Whether the day exists is checked later, with the invoice. */
export function parseDate(cell: string): Parsed {
  const text = cell.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { ok: true, value: text };
  const dotted = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})$/.exec(text);
  if (dotted) return { ok: true, value: `${dotted[3]}-${dotted[2]!.padStart(2, '0')}-${dotted[1]!.padStart(2, '0')}` };
  return { ok: false, message: `"${cell}" is not a date (write 2026-03-15 or 15.3.2026)` };
}

/** Codes (currency, country, unit, VAT category) compare upper-case. */
export const parseCode = (cell: string): Parsed => ({ ok: true, value: cell.trim().toUpperCase() });

/** Text keeps its inner line breaks; only the ends are trimmed. */
export const parseText = (cell: string): Parsed => ({ ok: true, value: cell.trim() });
