import type { BulkImportRowError } from '../../events/bulk-import.ts';

const SAVE_AS = 'save it from the spreadsheet as "CSV UTF-8" (CSV UTF-8 (oddelený čiarkou))';

/** The 1-based line of a byte offset: where an undecodable byte sits, for the error's row. */
function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** The offset of the first byte that is not valid UTF-8 (the file is known to hold one). */
function firstInvalid(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let low = 0;
  let high = bytes.length;
  // the longest valid prefix, by halving (a prefix may end inside a character: allow 3 bytes of slack)
  while (high - low > 4) {
    const mid = (low + high) >>> 1;
    try {
      decoder.decode(bytes.subarray(0, mid), { stream: true });
      low = mid;
    } catch {
      high = mid;
    }
  }
  return low;
}

/**
 * A file's bytes as text. UTF-8 only, with or without a BOM (the BOM is dropped). A UTF-16 file
 * (Excel's "Unicode text"), one in another encoding (Windows-1250, what Excel's plain "CSV" saves
 * in Slovakia) or a binary file (an .xlsx) is refused with where and how to fix it.
 */
export function decodeCsvFile(bytes: Uint8Array): { text: string } | { error: BulkImportRowError } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { error: { row: 1, column: null, message: `the file is UTF-16; ${SAVE_AS}` } };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalid(bytes);
    return { error: { row: lineOf(bytes, at), column: null, message: `the file is not UTF-8 (byte ${at + 1} is not; Windows-1250?): ${SAVE_AS}` } };
  }
  if (text.includes('\u0000')) return { error: { row: lineOf(bytes, bytes.indexOf(0)), column: null, message: `the file holds NUL bytes: it is not CSV text (an .xlsx?); ${SAVE_AS}` } };
  return { text };
}
