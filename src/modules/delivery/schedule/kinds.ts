import type { Scheduled } from '../../../platform/schedule/index.ts';

/**
 * The delivery work the schedule holds, one row per invoice and kind (key: the invoice id). A row
 * only says when to look: what is to be done is read from the invoice's stream each time.
 */
export const PEPPOL_ATTEMPT = 'peppol-attempt';
export const FS_FILING = 'fs-filing';
export const FS_VERDICT = 'fs-verdict';

/**
 * Peppol attempts queue per receiver (its participant id): a receiver that never answers holds
 * only its own lane. FS is one receiver for everyone, so its rows are laned per invoice: FS being
 * slow delays every filing alike whatever the lanes, and no filing waits behind another.
 */
export const peppolAttempt = (invoiceId: string, receiver: string, due: Date, ref: string): Scheduled => ({
  kind: PEPPOL_ATTEMPT, key: invoiceId, lane: `peppol:${receiver}`, due_at: due, ref,
});
export const fsFiling = (invoiceId: string, due: Date, ref: string): Scheduled => ({ kind: FS_FILING, key: invoiceId, lane: `fs:${invoiceId}`, due_at: due, ref });
export const fsVerdict = (invoiceId: string, due: Date, ref: string): Scheduled => ({ kind: FS_VERDICT, key: invoiceId, lane: `fs:${invoiceId}`, due_at: due, ref });
