import type { InvoiceNumberReserved } from '../../events/invoices.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { uniqueClaimDecider } from '../shared/unique-claim.ts';

/**
 * Invoice numbers. A series (per workspace, kind and year) hands out sequence numbers rendered
 * through a pattern; every number, from a series or sent by the client, is then claimed in its
 * organisation and tax year, so no number exists twice and a reserved number is never handed out
 * again (a series only moves forward, and a number a client already took is skipped).
 *
 * Default invoice pattern `{year}{seq:6}` (2026000001): digits only and 10 long, so the number can
 * double as the Slovak variable symbol. Credit notes: the spec's `DOB-{year}-{seq}`.
 */
export type SeriesKind = 'invoice' | 'credit_note';
export const DEFAULT_PATTERNS: Record<SeriesKind, string> = { invoice: '{year}{seq:6}', credit_note: 'DOB-{year}-{seq}' };

const PLACEHOLDER = /\{(year|yy|seq)(?::(\d{1,2}))?\}/g;

/** Why a pattern cannot number invoices, or null. */
export function patternProblem(pattern: string): string | null {
  if (!/\{seq(?::\d{1,2})?\}/.test(pattern)) return 'a numbering pattern must contain {seq} (or {seq:N} for N digits)';
  const rest = pattern.replace(PLACEHOLDER, '');
  if (/[{}]/.test(rest)) return 'unknown placeholder: use {year}, {yy}, {seq} or {seq:N}';
  if (!/^[A-Za-z0-9/_.-]*$/.test(rest)) return 'a numbering pattern may contain letters, digits and / _ . - besides placeholders';
  return null;
}

export function renderNumber(pattern: string, year: string, seq: number): string {
  return pattern.replace(PLACEHOLDER, (_all, name: string, width?: string) => {
    if (name === 'year') return year;
    if (name === 'yy') return year.slice(-2);
    return String(seq).padStart(Number(width ?? 0), '0');
  });
}

/** Numbers are unique per organisation and tax year, compared without case. */
export const invoiceNumberScope = (organisationId: string, taxYear: string) => `invoice_number-${organisationId}-${taxYear}`;
export const invoiceNumberKey = (invoiceNumber: string) => invoiceNumber.trim().toUpperCase();

export const invoiceNumberClaimDecider = uniqueClaimDecider(
  (number, holder) =>
    new DomainError('invoice_number_conflict', `invoice number ${number} is already used in this organisation and tax year`, {
      invoice_number: number,
      invoice_id: holder,
    }),
);

/** The events that claim a series number for the document taking it (a number a series hands out was never claimed before: else it is taken). */
export function claimSeriesNumber(claim: { number: string; organisationId: string; year: string; holderId: string; at: string }) {
  return invoiceNumberClaimDecider.decide({
    type: 'ClaimValue', scope: invoiceNumberScope(claim.organisationId, claim.year), value: invoiceNumberKey(claim.number), holder_id: claim.holderId,
    holder_exists: false, at: claim.at,
  }, invoiceNumberClaimDecider.initialState);
}

export type ReserveNumber = {
  type: 'ReserveNumber';
  series: string;
  pattern: string;
  year: string;
  invoice_id: string;
  at: string;
  /** numbers this document found already taken (by a client, for an invoice of theirs): skipped, never handed out */
  taken?: readonly string[];
};
export type SeriesState = { last_seq: number };

export const invoiceSeriesDecider: Decider<ReserveNumber, InvoiceNumberReserved, SeriesState> = {
  initialState: { last_seq: 0 },
  decide(command, state) {
    const problem = patternProblem(command.pattern);
    if (problem) throw new DomainError('invalid_numbering_pattern', problem);
    const taken = new Set((command.taken ?? []).map(invoiceNumberKey));
    let seq = state.last_seq + 1;
    while (taken.has(invoiceNumberKey(renderNumber(command.pattern, command.year, seq)))) seq++;
    return [
      {
        type: 'InvoiceNumberReserved',
        data: {
          series: command.series,
          seq,
          invoice_number: renderNumber(command.pattern, command.year, seq),
          invoice_id: command.invoice_id,
          reserved_at: command.at,
        },
      },
    ];
  },
  evolve: (state, event) => ({ last_seq: Math.max(state.last_seq, event.data.seq) }),
};

/** The next number a series would hand out, for the preview route (nothing is reserved). */
export function previewNumber(pattern: string, year: string, state: SeriesState): string {
  return renderNumber(pattern, year, state.last_seq + 1);
}
