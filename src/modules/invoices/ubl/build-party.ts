/**
 * A party block (supplier or buyer) as a UBL cac:Party. Where each Slovak identifier goes, and why:
 *
 * - peppol_id `<scheme>:<id>` → cbc:EndpointID schemeID=<scheme> (BT-34/BT-49; Peppol R010/R020
 *   require it). The sandbox form `9950:sk<digits>svctest` is checked by SK-SVC-009, `0245:<DIČ>` by
 *   SK-SVC-007/008.
 * - vat_id (IČ DPH or a foreign VAT ID) → cac:PartyTaxScheme with TaxScheme VAT (BT-31/BT-48). A party
 *   that is not VAT-registered (vat_id '') gets none: an empty CompanyID breaks UBL-SR-53 and R008.
 *   Nor does any party of a document not subject to VAT (category O, BR-O-02): `vatId` false.
 * - dic (DIČ) → a second cac:PartyTaxScheme with TaxScheme `TAX` (BT-32, the seller's tax
 *   registration). UBL-SR-42 allows two per party, and SK-SVC-005 checks a Slovak party's non-VAT
 *   scheme as the 10-digit DIČ. For the buyer EN16931 has no such field, but UBL allows it and it
 *   keeps the three Slovak identifiers of both parties in the document.
 * - ico (IČO) → cac:PartyLegalEntity/cbc:CompanyID schemeID 0158 (BT-30/BT-47, legal registration),
 *   which is what IČO is; SK-SVC-006 checks it. Not repeated as PartyIdentification (BT-29/BT-46): a
 *   second copy would add nothing, and UBL-SR-16 allows the buyer only one.
 * - name → PartyLegalEntity/RegistrationName (BT-27/BT-44, mandatory). No PartyName: the model has
 *   no separate trading name.
 * - street/city/postal_code → PostalAddress, each left out when empty (R008); country_code always.
 * - The seller's details from its company profile (issue 40), each left out when empty: the
 *   address's second line → AdditionalStreetName (BT-36); the register entry ("zapísaná v Obchodnom
 *   registri …") → PartyLegalEntity/CompanyLegalForm (BT-33, "additional legal information", the
 *   seller's only); the contact → Contact Name, Telephone, ElectronicMail (BG-6).
 */
import type { Party, SellerDetails } from '../../../../commands/invoices/model.ts';
import { ICD_SK_ICO, TAX_SCHEME_DIC } from './ubl-names.ts';
import { cac, cbc, type Node } from './xml-writer.ts';

/** `0245:2020273893` → { scheme: '0245', id: '2020273893' }; null when there is no colon. */
function splitPeppolId(peppolId: string): { scheme: string; id: string } | null {
  const colon = peppolId.indexOf(':');
  if (colon <= 0) return null;
  return { scheme: peppolId.slice(0, colon), id: peppolId.slice(colon + 1) };
}

export function writeAddress(parent: Node, element: string, party: Party, additionalStreet = ''): void {
  const address = cac(parent, element);
  cbc(address, 'StreetName', party.street);
  cbc(address, 'AdditionalStreetName', additionalStreet);
  cbc(address, 'CityName', party.city);
  cbc(address, 'PostalZone', party.postal_code);
  cbc(cac(address, 'Country'), 'IdentificationCode', party.country_code || 'SK');
}

/**
 * Writes `<cac:{role}><cac:Party>…</cac:Party></cac:{role}>`; `vatId` false leaves the VAT identifier
 * out; `details` are the seller's from its company profile.
 */
export function writeParty(
  parent: Node,
  role: 'AccountingSupplierParty' | 'AccountingCustomerParty',
  party: Party,
  vatId = true,
  details?: SellerDetails,
): void {
  const p = cac(cac(parent, role), 'Party');
  const endpoint = party.peppol_id ? splitPeppolId(party.peppol_id) : null;
  if (endpoint) cbc(p, 'EndpointID', endpoint.id, { schemeID: endpoint.scheme });
  writeAddress(p, 'PostalAddress', party, details?.additional_street);
  if (vatId && party.vat_id.trim() !== '') taxScheme(p, party.vat_id, 'VAT');
  if (party.dic) taxScheme(p, party.dic, TAX_SCHEME_DIC);
  const legal = cac(p, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', party.name);
  if (party.ico) cbc(legal, 'CompanyID', party.ico, { schemeID: ICD_SK_ICO });
  cbc(legal, 'CompanyLegalForm', details?.register_entry);
  if (details && (details.contact_name || details.contact_phone || details.contact_email)) {
    const contact = cac(p, 'Contact');
    cbc(contact, 'Name', details.contact_name);
    cbc(contact, 'Telephone', details.contact_phone);
    cbc(contact, 'ElectronicMail', details.contact_email);
  }
}

function taxScheme(party: Node, companyId: string, scheme: string): void {
  const s = cac(party, 'PartyTaxScheme');
  cbc(s, 'CompanyID', companyId);
  cbc(cac(s, 'TaxScheme'), 'ID', scheme);
}
