/**
 * The Slovak words a credit note's document carries: the text of its reason, the names of the lines
 * that stand for money rather than goods, and its note.
 *
 * - Reason texts: full_reversal "Storno faktúry", partial_credit "Dobropis – čiastočné zníženie",
 *   price_correction "Oprava ceny", returned_goods "Vrátenie tovaru". The Slovak VAT act (§ 71 (2))
 *   wants a corrective invoice to state why it corrects; the note says it, first thing.
 * - An `amount` row's line is named by its reason text and VAT bucket, e.g.
 *   "Oprava ceny (DPH 23 %)"; a `rest` row's (a full_reversal after earlier credit notes) e.g.
 *   "Storno faktúry – zostatok (DPH 19 %)". Copies and returns keep the invoice line's own name.
 * - The note: "<reason text> – faktúra č. <number> zo dňa <DD.MM.YYYY>", then the request's note on
 *   a line of its own (rule 1). The UBL BillingReference names the invoice too, for machines.
 */
import type { VatCategoryCode } from '../invoices/model.ts';
import type { CreditReason, VatBucketKey } from './model.ts';

export const REASON_TEXTS: Readonly<Record<CreditReason, string>> = {
  full_reversal: 'Storno faktúry',
  partial_credit: 'Dobropis – čiastočné zníženie',
  price_correction: 'Oprava ceny',
  returned_goods: 'Vrátenie tovaru',
};

/** What a zero-rated or exempt bucket is called, where a rate would say nothing. */
const CATEGORY_TEXTS: Partial<Record<VatCategoryCode, string>> = {
  E: 'oslobodené od DPH',
  AE: 'prenesenie daňovej povinnosti',
  K: 'dodanie do iného členského štátu',
  G: 'vývoz',
  O: 'nepodlieha DPH',
};

/** "DPH 23 %", "DPH 0 %" (Z), or the words of an exempt category. */
function bucketLabel(bucket: Pick<VatBucketKey, 'vat_rate' | 'vat_category_code'>): string {
  return CATEGORY_TEXTS[bucket.vat_category_code] ?? `DPH ${bucket.vat_rate} %`;
}

export function amountItemName(reason: CreditReason, bucket: VatBucketKey): string {
  return `${REASON_TEXTS[reason]} (${bucketLabel(bucket)})`;
}

export function restItemName(bucket: VatBucketKey): string {
  return `${REASON_TEXTS.full_reversal} – zostatok (${bucketLabel(bucket)})`;
}

export function creditNoteNote(reason: CreditReason, invoice: { invoice_number: string; issue_date: string }, note: string | null | undefined): string {
  const first = `${REASON_TEXTS[reason]} – faktúra č. ${invoice.invoice_number} zo dňa ${slovakDate(invoice.issue_date)}`;
  const appended = note?.trim();
  return appended ? `${first}\n${appended}` : first;
}

/** 2026-03-05 → 05.03.2026 */
function slovakDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return year && month && day ? `${day}.${month}.${year}` : iso;
}
