/**
 * Does the envelope say what its business document says? Peppol routes by the header alone, so a
 * header that disagrees with the document delivers it to the wrong party or under the wrong type.
 * Findings, never exceptions: the caller decides whether a mismatch refuses the message.
 *
 * Who the sender and receiver are depends on the document: for a UBL Invoice or CreditNote (Peppol
 * BIS Billing 3.0, not self-billing) the seller's and the buyer's EndpointID; for the Slovak TDD the
 * ReportingParty's and the ReceivingParty's EndpointID (compliance.pdf of the TDD 1.0.0 bundle); for
 * the Peppol MLS (an ApplicationResponse) the SenderParty's (C3's SPID) and the ReceiverParty's.
 */
import { firstAt, type XmlElement, type XmlNode } from '../../../platform/xml/index.ts';
import { documentTypeParts, formatParticipantId, sameParticipant } from './identifiers.ts';
import { withParsed } from './payload-xml.ts';
import type { SbdhEnvelope, SbdhHeader } from './sbdh-model.ts';

/** What the business document says about its routing. */
export interface PayloadFacts {
  namespace: string;
  localName: string;
  customizationId: string | null;
  profileId: string | null;
  /** `scheme:value` of the party that sends it (seller; TDD reporting party), null when it names none */
  senderEndpoint: string | null;
  /** `scheme:value` of the party it goes to (buyer; TDD receiving party), null when it names none */
  receiverEndpoint: string | null;
}

export type SbdhFindingCode = 'SBDH-SENDER-MISMATCH' | 'SBDH-RECEIVER-MISMATCH' | 'SBDH-DOCUMENT-TYPE-MISMATCH' | 'SBDH-PROCESS-MISMATCH';

export interface SbdhFinding {
  code: SbdhFindingCode;
  message: string;
}

const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  pxs: 'urn:peppol:schema:sk-taxdata:1.0',
};
const INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const APPLICATION_RESPONSE = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';

/** Where each kind of document names its sending and receiving party (XPath from the root). */
const PARTIES: Record<string, { sender: string; receiver: string }> = {
  [`${INVOICE} Invoice`]: { sender: 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID', receiver: 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID' },
  [`${CREDIT_NOTE} CreditNote`]: { sender: 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID', receiver: 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID' },
  [`${APPLICATION_RESPONSE} ApplicationResponse`]: { sender: 'cac:SenderParty/cbc:EndpointID', receiver: 'cac:ReceiverParty/cbc:EndpointID' },
  [`${NS.pxs} TaxData`]: { sender: 'pxs:ReportingParty/cbc:EndpointID', receiver: 'pxs:ReceivingParty/cbc:EndpointID' },
};

/** Reads the routing facts of a business document (untrusted XML). Throws SbdhError (SBDH-PAYLOAD) when it is not XML. */
export function readPayloadFacts(xml: string | Uint8Array): PayloadFacts {
  return withParsed(xml, 'SBDH-PAYLOAD', 'the business document', (doc) => payloadFactsOf(doc.root));
}

/** The routing facts of a business document already parsed (its root element; relative paths only, so one inside an envelope reads the same). */
export function payloadFactsOf(root: XmlElement): PayloadFacts {
  const where = PARTIES[`${root.namespaceUri} ${root.name}`];
  return {
    namespace: root.namespaceUri,
    localName: root.name,
    customizationId: text(root, 'cbc:CustomizationID'),
    profileId: text(root, 'cbc:ProfileID'),
    senderEndpoint: where ? endpoint(root, where.sender) : null,
    receiverEndpoint: where ? endpoint(root, where.receiver) : null,
  };
}

/** Compares the header with the document's facts; an empty list means they agree. */
export function checkSbdhAgainstDocument(header: SbdhHeader, facts: PayloadFacts): SbdhFinding[] {
  const findings: SbdhFinding[] = [];
  const party = (code: SbdhFindingCode, role: string, inHeader: string, inDocument: string | null) => {
    if (inDocument === null) findings.push({ code, message: `the SBDH ${role} is ${inHeader}, but the document names no ${role} EndpointID` });
    else if (!sameParticipant(inHeader, inDocument)) findings.push({ code, message: `the SBDH ${role} is ${inHeader}, but the document's ${role} EndpointID is ${inDocument}` });
  };
  party('SBDH-SENDER-MISMATCH', 'sender', header.sender, facts.senderEndpoint);
  party('SBDH-RECEIVER-MISMATCH', 'receiver', header.receiver, facts.receiverEndpoint);

  const docType = documentTypeParts(header.documentTypeId);
  const root = `{${facts.namespace}}${facts.localName}`;
  if (!docType || docType.namespace !== facts.namespace || docType.localName !== facts.localName) {
    findings.push({ code: 'SBDH-DOCUMENT-TYPE-MISMATCH', message: `the SBDH document type ${header.documentTypeId} is not for the document's root ${root}` });
  } else if (docType.customizationId !== facts.customizationId) {
    findings.push({
      code: 'SBDH-DOCUMENT-TYPE-MISMATCH',
      message: `the SBDH document type names customization ${docType.customizationId}, the document's CustomizationID is ${facts.customizationId ?? '(none)'}`,
    });
  }
  if (header.processId !== facts.profileId) {
    findings.push({ code: 'SBDH-PROCESS-MISMATCH', message: `the SBDH process is ${header.processId}, the document's ProfileID is ${facts.profileId ?? '(none)'}` });
  }
  return findings;
}

/** The check on a read envelope, against its own document. */
export function checkEnvelope(envelope: SbdhEnvelope): SbdhFinding[] {
  return checkSbdhAgainstDocument(envelope, readPayloadFacts(envelope.document));
}

function text(node: XmlNode, xpath: string): string | null {
  const value = firstAt(node, xpath, NS)?.content.trim() ?? '';
  return value === '' ? null : value;
}

/** `schemeID:value` of an EndpointID as written (sameParticipant normalises when comparing). */
function endpoint(root: XmlNode, xpath: string): string | null {
  const found = firstAt(root, xpath, NS);
  if (!found) return null;
  const value = found.content.trim();
  const scheme = found.get('@schemeID')?.content.trim() ?? '';
  return value === '' ? null : formatParticipantId({ scheme, value });
}
