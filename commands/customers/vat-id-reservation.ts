import type { CustomerVatIdReserved } from '../../events/customers.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

/**
 * A VAT ID is unique among an organisation's customers. The rule is enforced on the write side by
 * one stream per (organisation, VAT ID) that a registration must claim before the customer stream
 * is written. Event stores append to one stream atomically, so a crash between the two appends can
 * leave a claim whose customer never came to be; the handler says so (`holder_exists: false`) and
 * such an orphaned claim is taken over instead of blocking the VAT ID forever.
 */
export type ReserveVatId = {
  type: 'ReserveVatId';
  organisation_id: string;
  vat_id: string;
  customer_id: string;
  /** whether the customer currently holding the claim exists (read by the handler) */
  holder_exists: boolean;
};

export type VatIdReservationState = { holder: string | null };

export const vatIdReservationDecider: Decider<ReserveVatId, CustomerVatIdReserved, VatIdReservationState> = {
  initialState: { holder: null },

  decide(command, state) {
    if (state.holder === command.customer_id) return [];
    if (state.holder !== null && command.holder_exists) {
      throw new DomainError('customer_vat_id_conflict', 409, `a customer with VAT ID ${command.vat_id} already exists`, {
        vat_id: command.vat_id,
        customer_id: state.holder,
      });
    }
    return [
      {
        type: 'CustomerVatIdReserved',
        data: { organisation_id: command.organisation_id, vat_id: command.vat_id, customer_id: command.customer_id },
      },
    ];
  },

  evolve: (_state, event) => ({ holder: event.data.customer_id }),
};
