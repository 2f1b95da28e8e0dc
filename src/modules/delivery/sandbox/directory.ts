import type { DataSource } from 'typeorm';
import { findCompanyByParticipant } from '../../../../projections/tenancy/queries.ts';
import { BILLING_PROCESS_ID, documentTypeFor, parseParticipantId } from '../peppol/identifiers.ts';
import { ParticipantLookupError, type ParticipantDirectory, type ParticipantLookup } from '../peppol/participants.ts';

/**
 * The sandbox directory: a participant is registered when a company of this service has it as its
 * peppol_id, and then receives the Peppol BIS Billing 3.0 invoice and credit note (what the
 * sandbox network delivers). Any organisation's company counts: Peppol addresses are public.
 */
export function sandboxParticipantDirectory(db: DataSource): ParticipantDirectory {
  return {
    async lookup(participantId: string): Promise<ParticipantLookup> {
      let parsed;
      try {
        parsed = parseParticipantId(participantId);
      } catch (error) {
        throw new ParticipantLookupError('invalid_participant_id', (error as Error).message);
      }
      const id = `${parsed.scheme}:${parsed.value}`;
      const company = await findCompanyByParticipant(db, id);
      const registered = company !== null;
      const capability = (root: 'Invoice' | 'CreditNote') => ({
        document_type_id: documentTypeFor(root), name: `Peppol BIS Billing 3.0 ${root === 'Invoice' ? 'Invoice' : 'Credit Note'}`,
        process_ids: [BILLING_PROCESS_ID], transport_profiles: [], endpoint_urls: [],
      });
      return {
        participant_id: id, scheme: parsed.scheme, identifier: parsed.value, registered, can_receive: registered,
        can_receive_invoice: registered, can_receive_credit_note: registered,
        document_types: registered ? [capability('Invoice'), capability('CreditNote')] : [], source: 'sandbox', smp_url: null,
      };
    },
  };
}
