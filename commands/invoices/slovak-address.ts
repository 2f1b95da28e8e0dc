/**
 * Peppol BIS 3.0.22's SK-R-002 to SK-R-007 (warnings): a Slovak domestic invoice should carry the
 * seller's and the buyer's street, city and post code, which §74(1)(a)-(b) of the Slovak VAT Act asks
 * of every invoice. Checked here, on the content, so create and validate warn under every rule
 * release; under 3.0.22 its Schematron says the same of the UBL with the same ids. The ids follow the
 * order of the release notes (seller street, city, post code, then the buyer's): compare them with
 * 3.0.22's PEPPOL-EN16931-UBL.sch when its files arrive.
 */
import type { InvoiceContent, Party } from './model.ts';
import { normaliseVatId } from '../shared/slovak-identifiers.ts';

export interface AddressWarning {
  rule: string;
  message: string;
  field: string;
}

const PARTS = [
  { key: 'street', label: 'street', seller: ['SK-R-002', 'BT-35'], buyer: ['SK-R-005', 'BT-50'] },
  { key: 'city', label: 'city', seller: ['SK-R-003', 'BT-37'], buyer: ['SK-R-006', 'BT-52'] },
  { key: 'postal_code', label: 'post code', seller: ['SK-R-004', 'BT-38'], buyer: ['SK-R-007', 'BT-53'] },
] as const;

/** A party in Slovakia: an SK address or an SK VAT id (as SK-UBL.sch judges the seller). */
export function isSlovakParty(party: Party): boolean {
  return party.country_code.trim().toUpperCase() === 'SK' || normaliseVatId(party.vat_id).startsWith('SK');
}

/** What a Slovak domestic invoice (seller and buyer in Slovakia) leaves out of the two addresses. */
export function slovakAddressWarnings(content: Pick<InvoiceContent, 'supplier' | 'buyer'>): AddressWarning[] {
  if (!isSlovakParty(content.supplier) || !isSlovakParty(content.buyer)) return [];
  const found: AddressWarning[] = [];
  for (const [at, who] of [['supplier', 'seller'], ['buyer', 'buyer']] as const) {
    for (const part of PARTS) {
      if (content[at][part.key].trim() !== '') continue;
      const [rule, term] = part[who];
      found.push({
        rule,
        message: `A Slovak domestic invoice should give the ${who}'s ${part.label} (${term}; §74 of the Slovak VAT Act)`,
        field: `${at}.${part.key}`,
      });
    }
  }
  return found;
}
