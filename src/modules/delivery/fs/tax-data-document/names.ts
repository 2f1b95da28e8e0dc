/** Namespaces and fixed identifiers of the Slovak Tax Data Document (Peppol SK TDD 1.0.0). */
import { NS } from '../../../invoices/index.ts';

/** The TDD's own elements (TaxData, ReportedDocument, DocumentLine, ...). Everything else is UBL cbc/cac. */
export const PXS = 'urn:peppol:schema:sk-taxdata:1.0';

/** XPath prefixes for reading a TDD (tests, validator). */
export const TDD_XPATH_NS = { pxs: PXS, cac: NS.cac, cbc: NS.cbc };

/** TDT-001 and TDT-002 (ibr-tdd-01, ibr-tdd-02). */
export const TDD_CUSTOMIZATION_ID = 'urn:peppol:taxdata:sk-1';
export const TDD_PROFILE_ID = 'urn:peppol:taxreporting';

/** The participant scheme of the tax authority's endpoint and of service providers: Peppol SPID (ibr-tdd-20/23). */
export const SPID_SCHEME = '0242';

/**
 * Namespace of the ReportedDocument UUID v5 (TDT-017). From the Peppol SK solution architecture as
 * phax/peppol-sk uses it; the official bundle does not define it (README §5.4).
 */
export const REPORTED_DOCUMENT_UUID_NAMESPACE = 'e0bc4ac8-b025-46e5-a76d-0c893fc3027e';
