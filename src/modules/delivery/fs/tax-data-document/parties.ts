/**
 * The parties of the reported document (README §5.3): country and VAT identifier, plus the buyer's
 * legal name. Nothing else (names, streets, endpoints, contacts) goes to the tax authority.
 *
 * The VAT identifier is the PartyTaxScheme whose TaxScheme/ID is VAT, not the first one (README
 * §5.7): our own UBL puts the DIČ in a second scheme `TAX`, and a party that is not VAT-registered
 * has only that one, so it gets no PartyTaxScheme here at all (ibr-tdd-33/41/47 want VAT).
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node } from '../../../invoices/index.ts';
import { cac, cbc, type Node } from '../../../invoices/index.ts';
import { copy, required } from './copy.ts';

const VAT_SCHEME = "cac:PartyTaxScheme[normalize-space(cac:TaxScheme/cbc:ID) = 'VAT'][normalize-space(cbc:CompanyID) != '']";

function writeCountry(party: Node, source: XmlNode): void {
  const country = node(source, 'cac:PostalAddress/cac:Country[normalize-space(cbc:IdentificationCode) != \'\']');
  if (country === null) return; // BR-09 / BR-11 report it; the TDD is still written
  copy(cac(cac(party, 'PostalAddress'), 'Country'), country, 'IdentificationCode');
}

function writeVatId(party: Node, source: XmlNode): void {
  const scheme = node(source, VAT_SCHEME);
  if (scheme === null) return;
  const target = cac(party, 'PartyTaxScheme');
  copy(target, scheme, 'CompanyID');
  cbc(cac(target, 'TaxScheme'), 'ID', 'VAT');
}

/** Seller (BG-4): country (BT-40) and VAT identifier (BT-31). */
export function writeSupplier(doc: Node, ubl: XmlNode): void {
  const source = node(ubl, 'cac:AccountingSupplierParty/cac:Party');
  if (source === null) return; // never: the UUID already needed the seller's endpoint
  const party = cac(cac(doc, 'AccountingSupplierParty'), 'Party');
  writeCountry(party, source);
  writeVatId(party, source);
}

/** Buyer (BG-7): country (BT-55), VAT identifier (BT-48) and legal name (BT-44, mandatory: BR-07). */
export function writeCustomer(doc: Node, ubl: XmlNode): void {
  const path = 'cac:AccountingCustomerParty/cac:Party';
  const name = required(ubl, `${path}/cac:PartyLegalEntity/cbc:RegistrationName`, "the buyer's name (BT-44)");
  const source = node(ubl, path);
  const party = cac(cac(doc, 'AccountingCustomerParty'), 'Party');
  if (source !== null) {
    writeCountry(party, source);
    writeVatId(party, source);
  }
  cbc(cac(party, 'PartyLegalEntity'), 'RegistrationName', name);
}

/** Seller's tax representative (BG-11), when there is one: country (BT-69) and VAT identifier (BT-63). */
export function writeTaxRepresentative(doc: Node, ubl: XmlNode): void {
  const source = node(ubl, 'cac:TaxRepresentativeParty');
  if (source === null) return;
  const party = cac(doc, 'TaxRepresentativeParty');
  writeCountry(party, source);
  writeVatId(party, source);
}
