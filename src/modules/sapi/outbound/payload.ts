import type { XmlNode } from '../../../platform/xml/index.ts';
import { SapiRefusal, type SapiDetail } from '../../../../commands/sapi/errors.ts';
import type { PayloadFacts, ValidationOutcome } from '../../../../commands/sapi/send-request.ts';
import { XPATH_NS } from '../../invoices/index.ts';
import { parseUntrusted } from '../../../platform/xml/index.ts';
import type { ValidationReport } from '../../../platform/validation/index.ts';

const text = (node: XmlNode, xpath: string): string | null => {
  const value = node.get(xpath, XPATH_NS)?.content.trim() ?? '';
  return value === '' ? null : value;
};

/**
 * What the payload says about itself, read with the validation engine's hardened parser (no DTD,
 * no entities, no network; size, depth and count bounds). Not XML, or unsafe XML: SAPI-VAL-001
 * naming `payload`, with the parser's rule and message.
 */
export function readPayloadFacts(payload: string): PayloadFacts {
  const parsed = parseUntrusted(payload);
  if (!parsed.ok) {
    const { rule, message, location } = parsed.finding;
    const detail: SapiDetail = { field: 'payload', issue: `${rule}: ${message}${location ? ` (at ${location})` : ''}` };
    throw new SapiRefusal('SAPI-VAL-001', 'the payload is not XML that can be read safely', [detail]);
  }
  const { doc, documentType } = parsed.parsed;
  try {
    const root = doc.root;
    const party = (role: 'Supplier' | 'Customer'): string | null => {
      const endpoint = root.get(`cac:Accounting${role}Party/cac:Party/cbc:EndpointID`, XPATH_NS);
      const value = endpoint?.content.trim() ?? '';
      if (!endpoint || value === '') return null;
      const scheme = endpoint.get('@schemeID')?.content.trim() ?? '';
      return `${scheme}:${value}`;
    };
    return {
      root: documentType,
      rootName: `{${root.namespaceUri}}${root.name}`,
      senderEndpoint: documentType ? party('Supplier') : null,
      receiverEndpoint: documentType ? party('Customer') : null,
      profileId: text(root, 'cbc:ProfileID'),
      invoiceNumber: text(root, 'cbc:ID'),
      issueDate: text(root, 'cbc:IssueDate'),
      supplierCountry: documentType ? text(root, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode') : null,
    };
  } finally {
    doc.dispose();
  }
}

/** The engine's report as the send's rules read it. */
export const validationOutcome = (report: ValidationReport): ValidationOutcome => ({
  fatal: report.errors.map((f) => ({ rule: f.rule, location: f.location, message: f.message })),
  stages: { xsd: report.xsd_valid, peppol: report.peppol_valid, slovak: report.slovak_valid },
});
