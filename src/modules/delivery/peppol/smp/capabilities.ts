/**
 * What an SMP's services mean for the port: one DocumentCapability per document type, named when
 * it is a Peppol BIS Billing 3.0 Invoice or CreditNote, and whether the participant can receive
 * those two: the document type (scheme busdox-docid-qns) with the billing process (scheme
 * cenbii-procid-ubl) and at least one endpoint in service now. Document type and process values
 * compare case-sensitively (Policy for use of Identifiers, POLICY 2).
 */
import {
  BILLING_PROCESS_ID,
  CREDIT_NOTE_DOCUMENT_TYPE_ID,
  DOCUMENT_TYPE_SCHEME,
  INVOICE_DOCUMENT_TYPE_ID,
  PROCESS_SCHEME,
} from '../identifiers.ts';
import type { DocumentCapability } from '../participants.ts';
import type { ServiceInformation, SmpEndpoint, SmpProcess } from './service-metadata.ts';

const KNOWN_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  [INVOICE_DOCUMENT_TYPE_ID]: 'Peppol BIS Billing 3.0 Invoice',
  [CREDIT_NOTE_DOCUMENT_TYPE_ID]: 'Peppol BIS Billing 3.0 Credit Note',
};

interface Capabilities {
  document_types: DocumentCapability[];
  can_receive_invoice: boolean;
  can_receive_credit_note: boolean;
}

export function capabilitiesOf(services: readonly ServiceInformation[], now: Date): Capabilities {
  const live = services.map((service) => ({
    ...service,
    processes: service.processes.map((p) => ({ ...p, endpoints: p.endpoints.filter((e) => inService(e, now)) })),
  }));
  return {
    document_types: live.map(toCapability),
    can_receive_invoice: live.some((s) => receivesBilling(s, INVOICE_DOCUMENT_TYPE_ID)),
    can_receive_credit_note: live.some((s) => receivesBilling(s, CREDIT_NOTE_DOCUMENT_TYPE_ID)),
  };
}

function toCapability(service: ServiceInformation): DocumentCapability {
  const id = service.documentType.value;
  const endpoints = service.processes.flatMap((p) => p.endpoints);
  return {
    document_type_id: id,
    name: service.documentType.scheme === DOCUMENT_TYPE_SCHEME ? (KNOWN_DOCUMENT_TYPES[id] ?? null) : null,
    process_ids: unique(service.processes.map((p) => p.process.value)),
    transport_profiles: unique(endpoints.map((e) => e.transportProfile).filter((t) => t !== '')),
    endpoint_urls: unique(endpoints.map((e) => e.url).filter((u) => u !== '')),
  };
}

function receivesBilling(service: ServiceInformation, documentTypeId: string): boolean {
  return (
    service.documentType.scheme === DOCUMENT_TYPE_SCHEME &&
    service.documentType.value === documentTypeId &&
    service.processes.some(isBillingWithEndpoint)
  );
}

function isBillingWithEndpoint(process: SmpProcess): boolean {
  return (
    process.process.scheme === PROCESS_SCHEME &&
    process.process.value === BILLING_PROCESS_ID &&
    process.endpoints.some((e) => e.url !== '')
  );
}

/** Senders ignore endpoints not yet activated or expired (SMP 1.x EndpointType); an unreadable date is ignored. */
export function inService(endpoint: SmpEndpoint, now: Date): boolean {
  const from = endpoint.activation === null ? NaN : Date.parse(endpoint.activation);
  const until = endpoint.expiration === null ? NaN : Date.parse(endpoint.expiration);
  if (!Number.isNaN(from) && now.getTime() < from) return false;
  if (!Number.isNaN(until) && now.getTime() > until) return false;
  return true;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
