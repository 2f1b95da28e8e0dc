import { DomainError } from '../shared/domain-error.ts';
import { uniqueClaimDecider } from '../shared/unique-claim.ts';

/** A VAT ID is unique among an organisation's customers (spec: duplicate vat_id gives 409). */
export const vatIdClaimScope = (organisationId: string) => `customer_vat_id-${organisationId}`;

export const vatIdReservationDecider = uniqueClaimDecider(
  (vatId, holder) =>
    new DomainError('customer_vat_id_conflict', `a customer with VAT ID ${vatId} already exists`, { vat_id: vatId, customer_id: holder }),
);
