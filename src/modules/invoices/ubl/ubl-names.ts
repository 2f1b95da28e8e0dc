/** UBL 2.1 namespaces and the Peppol BIS Billing 3.0 identifiers every document we build carries. */
export const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

/** Prefix → URI for XPath in the reader (the root's own namespace is bound to `inv` / `cn`). */
export const XPATH_NS = { inv: NS.invoice, cn: NS.creditNote, cac: NS.cac, cbc: NS.cbc };

export const PEPPOL_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/**
 * ISO 6523 ICD 0158: "Identification number of economic subjects (IČO)", the Slovak statistical
 * office's register. It is in the ICD lists of BR-CL-10/11, so it may qualify PartyLegalEntity.
 */
export const ICD_SK_ICO = '0158';

/** TaxScheme/ID of the second PartyTaxScheme, which carries the DIČ (SK-SVC-005 checks it). */
export const TAX_SCHEME_DIC = 'TAX';

/** UNCL 5189 95 "Discount": the reason code of a line discount. */
export const DISCOUNT_REASON_CODE = '95';
export const DISCOUNT_REASON = 'Discount';

/**
 * The mutually defined reason code. UNCL 7161 (charges) has ZZZ, but the UNCL 5189 subset that
 * BR-CL-19 / PEPPOL-EN16931-CL002 allow for allowances does not, so a ZZZ allowance is written with
 * its reason text alone, and the reader knows our rounding correction by that text.
 */
export const ZZZ = 'ZZZ';
export const ZZZ_ALLOWANCE_REASON = 'Rounding correction';
