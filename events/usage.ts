import type { DomainEvent } from './event.ts';

/** Where an invoice was sent from: the native API or the SAPI-SK connector (one shared counter). */
export type UsageSource = 'api' | 'sapi';

/**
 * One invoice counted against its organisation's monthly quota. `count` is the month's running
 * total including this one; `overage` marks an invoice past the quota on a plan that allows it, so
 * billing can charge it.
 */
export type InvoiceCounted = DomainEvent<
  'InvoiceCounted',
  {
    organisation_id: string;
    invoice_id: string;
    /** 'YYYY-MM' */
    month: string;
    count: number;
    overage: boolean;
    source: UsageSource;
    counted_at: string;
  }
>;

/**
 * A count taken back: the document it was taken for was never written (its write lost a race at
 * the append, e.g. a credit note whose invoice moved since the If-Match: 412). `count` is the
 * month's running total after it.
 */
export type InvoiceCountReleased = DomainEvent<
  'InvoiceCountReleased',
  {
    organisation_id: string;
    invoice_id: string;
    /** 'YYYY-MM' */
    month: string;
    count: number;
    reason: 'not_created';
    released_at: string;
  }
>;

export type UsageEvent = InvoiceCounted | InvoiceCountReleased;

/** One stream per organisation and month: a month's quota check reads only that month. */
export const usageStream = (organisationId: string, month: string) => `usage-${organisationId}-${month}`;
