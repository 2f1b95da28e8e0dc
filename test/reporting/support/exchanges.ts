import type { ReportableExchange } from '../../../commands/reporting/item.ts';

const INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BILLING = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const exchange = (direction: 'sent' | 'received', endUser: string, country: string, extra: Partial<ReportableExchange> = {}): ReportableExchange => ({
  direction, end_user_id: endUser, end_user_country: country, document_type_id: INVOICE, process_id: BILLING,
  c1_country: direction === 'sent' ? country : 'CZ', c4_country: direction === 'received' ? country : null,
  peer_ap: null, transport_profile: 'peppol-transport-as4-v2_0', ...extra,
});

export const DOC = { INVOICE, CREDIT_NOTE, BILLING };

/**
 * A month of traffic, with what it must give counted by hand:
 * - sent: A (SK) 2 invoices via C3 PAT000002, 1 credit note via ourselves; B (SK) 1 invoice via ourselves;
 * - received: A (SK) 1 invoice from C1 in CZ via C2 PCZ000003; C (AT) 2 invoices from C1 in DE via ourselves.
 * EUSR full set: sending {A, B} = 2, receiving {A, C} = 2, either {A, B, C} = 3.
 * TSR: outgoing 4, incoming 3.
 */
export function sampleExchanges(): ReportableExchange[] {
  return [
    exchange('sent', '0245:1111111111', 'SK', { peer_ap: 'PAT000002' }),
    exchange('sent', '0245:1111111111', 'SK', { peer_ap: 'PAT000002' }),
    exchange('sent', '0245:1111111111', 'SK', { document_type_id: CREDIT_NOTE }),
    exchange('sent', '0245:2222222222', 'SK'),
    exchange('received', '0245:1111111111', 'SK', { peer_ap: 'PCZ000003' }),
    exchange('received', '9915:atu33333333', 'AT', { c1_country: 'DE' }),
    exchange('received', '9915:atu33333333', 'AT', { c1_country: 'DE' }),
  ];
}
