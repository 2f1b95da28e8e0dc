/* The credit-note and void routes' OpenAPI descriptions: what a client must know of the rules behind them. */

export const CREATE_DESCRIPTION = [
  'Needs If-Match with the invoice version read (428 without it; 412 when the invoice changed since, e.g. another credit note was made: reload it).',
  'An invoice that is not found, or cannot be credited at all (409 not_creditable: see below), is answered so first, before 428 and 412.',
  'The credit note is a document of its own (type 381, numbered from the credit-note series `DOB-{year}-{seq}`) whose UBL names the invoice',
  '(BillingReference); `credited_invoice` on its reads names it too. It cannot be edited (PUT: 409 locked_credit_note).',
  '`full_reversal` copies the invoice row for row, or after earlier credit notes credits what each VAT bucket has left;',
  '`partial_credit` / `price_correction` credit VAT-inclusive amounts[] per VAT bucket (base = round-half-up(gross / (1 + rate/100), 2), vat = gross − base;',
  'a gross equal to the bucket\'s left_gross credits its left_base and left_vat as they stand); `returned_goods` credits lines[] at their own price and rate.',
  '`note` is appended to the credit note\'s note (PDF and UBL).',
  'Creditable: invoices issued here that have left the service (queued, sent_peppol, delivered, sent_fs, fs_acknowledged, rejected; failed only when',
  'the document reached someone); not drafts, validated, approved or pending_approval invoices (correct them instead), received invoices,',
  'proformas, credit notes, voided or fully credited invoices (409 not_creditable). A full_reversal is also refused while another credit note',
  'of the invoice is queued (it waits for nothing, so it cannot know what that one will take); queued partial, price and return credit notes',
  'never block one another. Answers: 202 `queued` (Peppol delivery and the FS copy, as a send); 201 `delivered` when the buyer has no',
  'electronic address or the invoice was finished by hand (hand the buyer the PDF); 201 `pending_approval` when an accountant asks in an',
  'organisation that has an admin or approver (nothing is delivered until approved and sent). Queued and issued credit notes count against what is',
  'left at once (GET …/credit-notes/allowance); a failed one gives its amount back, and an issued full_reversal voids the invoice.',
  'Idempotency-Key is supported.',
].join(' ');

export const VOID_DESCRIPTION = [
  'Cancels an issued invoice the way Slovak law allows: a full-reversal credit note, made here as a draft (status `draft`, numbered',
  '`DOB-{year}-{seq}`, `credited_invoice` naming the invoice) that the caller reviews and sends itself (POST …/send, or …/mark-sent when',
  'the buyer gets it by hand; an accountant asks for approval first). The draft counts against nothing until it is sent: the allowance is',
  'unchanged. Its send credits what is left AT THAT TIME: if another credit note was issued meanwhile, the draft\'s rows and totals are',
  'made again from what is left then, and its issue date becomes the day it is sent; if nothing is left the send is refused (409',
  'not_creditable), and while another credit note of the invoice is queued too. Once issued it voids the invoice. The credit note cannot',
  'be edited (PUT: 409 locked_credit_note). If-Match is optional here (412 when stale); a second void while a draft waits answers 200 with',
  'that draft instead of making another. Same creditability rules as the credit-note route.',
].join(' ');
