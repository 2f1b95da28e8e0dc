/**
 * UBL 2.1 out and in, under Peppol BIS Billing 3.0: `buildUbl(content, totals)` writes an Invoice or
 * CreditNote, `readUbl(xml)` reads one back into the same model. See build.ts, build-party.ts,
 * read.ts and read-party.ts for the mapping decisions.
 */
export { buildUbl } from './build.ts';
export { readUbl, readUblElement, UblReadError, type UblDocument } from './read.ts';
