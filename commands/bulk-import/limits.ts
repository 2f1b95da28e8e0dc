/**
 * What one import may hold. 10 MiB is about 40,000 rows of the template's width; 20,000 data rows
 * keep a job within a minute on the embedded database; 1,000 lines per invoice is the invoice
 * API's own hard cap (200 is the Peppol soft cap, a warning). The status shows the first 1,000
 * errors and counts the rest, so an answer stays small whatever the file.
 */
export const BULK_IMPORT_LIMITS = {
  maxFileBytes: 10 * 1024 * 1024,
  maxDataRows: 20_000,
  maxLinesPerInvoice: 1_000,
  maxRefLength: 100,
  maxErrorsShown: 1_000,
} as const;
