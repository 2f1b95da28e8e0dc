import type { DomainEvent } from './event.ts';

/**
 * A value the spec demands be unique (a customer's VAT ID in an organisation, an invoice number
 * in an organisation and tax year) taken by one holder. One stream per scope and value, so the
 * event store's `no_stream` append is the uniqueness check.
 */
export type ValueClaimed = DomainEvent<'ValueClaimed', { scope: string; value: string; holder_id: string; claimed_at: string }>;

export const claimStream = (scope: string, value: string) => `claim-${scope}-${value}`;
