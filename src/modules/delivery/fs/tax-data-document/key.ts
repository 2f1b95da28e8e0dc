/** The five UBL values the ReportedDocument UUID is named by (README §5.4), read from a parsed document. */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { required } from './copy.ts';
import { withUbl } from './source.ts';
import { reportedDocumentUuid, type ReportedDocumentKey } from './uuid.ts';

/** XPath of BT-3 in an Invoice or a CreditNote. */
function typeCodePath(creditNote: boolean): string {
  return creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode';
}

/** Throws TddBuildError when one is missing: phax refuses such a document too. */
export function readKey(ubl: XmlNode, creditNote: boolean): ReportedDocumentKey {
  const endpoint = 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID';
  const sellerEndpointId = required(ubl, endpoint, "the seller's electronic address (BT-34)");
  return {
    sellerEndpointScheme: required(ubl, `${endpoint}/@schemeID`, "the scheme of the seller's electronic address (BT-34-1)"),
    sellerEndpointId,
    documentTypeCode: required(ubl, typeCodePath(creditNote), 'the document type code (BT-3)'),
    documentId: required(ubl, 'cbc:ID', 'the document number (BT-1)'),
    issueDate: required(ubl, 'cbc:IssueDate', 'the issue date (BT-2)'),
  };
}

/** The key of a UBL Invoice or CreditNote (XML); throws TddBuildError when it cannot be read. */
export function readReportedDocumentKey(ublXml: string | Uint8Array): ReportedDocumentKey {
  return withUbl(ublXml, readKey);
}

/** The ReportedDocument UUID of a UBL Invoice or CreditNote (XML). */
export function reportedDocumentUuidOf(ublXml: string | Uint8Array): string {
  return reportedDocumentUuid(readReportedDocumentKey(ublXml));
}
