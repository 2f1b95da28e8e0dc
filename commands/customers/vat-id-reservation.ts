import type { CustomerVatIdReserved } from '../../events/customers.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

/**
 * A VAT ID is unique among an organisation's customers. The rule is enforced on the write side by
 * one stream per (organisation, VAT ID) that a registration must claim before the customer stream
 * is written. Event stores append to one stream atomically, so a crash between the two appends can
 * leave a claim whose customer never came to be. Such a claim is taken over once it is older than
 * ORPHANED_AFTER_MS and its customer still does not exist (read by the handler); a younger one may
 * belong to a registration still in flight, so it blocks like any other.
 */
export const ORPHANED_AFTER_MS = 60_000;

export type ReserveVatId = {
  type: 'ReserveVatId';
  organisation_id: string;
  vat_id: string;
  customer_id: string;
  /** whether the customer currently holding the claim exists (read by the handler) */
  holder_exists: boolean;
  at: string;
};

export type VatIdReservationState = { holder: string | null; claimed_at: string | null };

function orphaned(state: VatIdReservationState, command: ReserveVatId): boolean {
  if (command.holder_exists || state.claimed_at === null) return false;
  return Date.parse(command.at) - Date.parse(state.claimed_at) > ORPHANED_AFTER_MS;
}

export const vatIdReservationDecider: Decider<ReserveVatId, CustomerVatIdReserved, VatIdReservationState> = {
  initialState: { holder: null, claimed_at: null },

  decide(command, state) {
    if (state.holder === command.customer_id) return [];
    if (state.holder !== null && !orphaned(state, command)) {
      throw new DomainError('customer_vat_id_conflict', 409, `a customer with VAT ID ${command.vat_id} already exists`, {
        vat_id: command.vat_id,
        customer_id: state.holder,
      });
    }
    return [
      {
        type: 'CustomerVatIdReserved',
        data: {
          organisation_id: command.organisation_id,
          vat_id: command.vat_id,
          customer_id: command.customer_id,
          claimed_at: command.at,
        },
      },
    ];
  },

  evolve: (_state, event) => ({ holder: event.data.customer_id, claimed_at: event.data.claimed_at }),
};
