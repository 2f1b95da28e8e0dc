/**
 * The rows a credit-note request credits, from the invoice's allowance: the one entry point the
 * decider needs. Refuses with 409 not_creditable when the allowance says so (whatever the reason),
 * with the request-body 422 when a number is unusable, and with 422 credit_limit_exceeded when the
 * request does not fit what is left. Whether another credit note is queued (which blocks a
 * full_reversal) is the decider's to check; the allowance does not know.
 */
import { amountRows } from './amounts.ts';
import { NOTHING_LEFT, notCreditable } from './creditability.ts';
import { fullReversalRows } from './full-reversal.ts';
import type { Allowance, CreditNoteRequest, CreditRow } from './model.ts';
import { checkCreditNoteRequest } from './request.ts';
import { returnRows } from './returns.ts';

export function creditNoteRows(request: CreditNoteRequest, allowance: Allowance): CreditRow[] {
  if (!allowance.creditable) throw notCreditable(allowance.refusal ?? NOTHING_LEFT);
  checkCreditNoteRequest(request);
  switch (request.reason) {
    case 'full_reversal':
      return fullReversalRows(allowance);
    case 'partial_credit':
    case 'price_correction':
      return amountRows(request.amounts, allowance);
    case 'returned_goods':
      return returnRows(request.lines, allowance);
  }
}
