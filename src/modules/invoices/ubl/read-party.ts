/**
 * A UBL cac:Party → the model's party block: the inverse of build-party.ts, tolerant of what other
 * senders write.
 *
 * - name: PartyLegalEntity/RegistrationName, else PartyName/Name.
 * - vat_id: the PartyTaxScheme whose TaxScheme is VAT; '' when there is none (not VAT-registered).
 * - dic: the other PartyTaxScheme's CompanyID, when the party is Slovak or it has the DIČ's 10 digits;
 *   other countries' tax registrations (e.g. Norway's "Foretaksregisteret") are not carried.
 * - ico: a CompanyID or PartyIdentification with schemeID 0158; for a Slovak party also a
 *   PartyLegalEntity CompanyID without a scheme. Foreign legal registration IDs are not carried
 *   (the field is the Slovak IČO).
 * - peppol_id: `<EndpointID/@schemeID>:<EndpointID>`.
 * - address: StreetName, CityName, PostalZone ('' when absent), Country (SK when absent).
 *   AdditionalStreetName, AddressLine and the like are not carried.
 */
import type { XmlNode } from '../../../platform/xml/index.ts';
import type { Party } from '../../../../commands/invoices/model.ts';
import { ICD_SK_ICO } from './ubl-names.ts';
import { text } from './xml-reader.ts';

export function readParty(party: XmlNode | null): Party {
  if (party === null) {
    return { name: '', vat_id: '', ico: null, dic: null, peppol_id: null, street: '', city: '', postal_code: '', country_code: 'SK' };
  }
  const country = (text(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode') ?? 'SK').toUpperCase();
  const slovak = country === 'SK';
  const otherTax = text(party, "cac:PartyTaxScheme[not(normalize-space(cac:TaxScheme/cbc:ID) = 'VAT')]/cbc:CompanyID");
  const endpoint = text(party, 'cbc:EndpointID');
  const endpointScheme = text(party, 'cbc:EndpointID/@schemeID');
  return {
    name: text(party, 'cac:PartyLegalEntity/cbc:RegistrationName') ?? text(party, 'cac:PartyName/cbc:Name') ?? '',
    vat_id: text(party, "cac:PartyTaxScheme[normalize-space(cac:TaxScheme/cbc:ID) = 'VAT']/cbc:CompanyID") ?? '',
    ico:
      text(party, `cac:PartyLegalEntity/cbc:CompanyID[@schemeID = '${ICD_SK_ICO}']`) ??
      text(party, `cac:PartyIdentification/cbc:ID[@schemeID = '${ICD_SK_ICO}']`) ??
      (slovak ? text(party, 'cac:PartyLegalEntity/cbc:CompanyID[not(@schemeID)]') : null),
    dic: otherTax !== null && (slovak || /^\d{10}$/.test(otherTax)) ? otherTax : null,
    peppol_id: endpoint === null ? null : endpointScheme === null ? endpoint : `${endpointScheme}:${endpoint}`,
    street: text(party, 'cac:PostalAddress/cbc:StreetName') ?? '',
    city: text(party, 'cac:PostalAddress/cbc:CityName') ?? '',
    postal_code: text(party, 'cac:PostalAddress/cbc:PostalZone') ?? '',
    country_code: country,
  };
}
