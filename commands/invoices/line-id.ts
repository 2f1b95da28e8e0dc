import { stableUuid } from '../shared/stable-id.ts';

/**
 * The id of an invoice line as reads show it (`lines[].id`): a function of the invoice and the
 * line number, so it survives replays and is the same wherever it is computed (invoice reads, the
 * credit-note allowance, a return's `source_line_id`).
 */
export function invoiceLineId(invoiceId: string, lineNumber: number): string {
  return stableUuid(invoiceId, 'line', String(lineNumber));
}
