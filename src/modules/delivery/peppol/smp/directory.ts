/**
 * The answers of POST /tools/peppol-check (the ParticipantDirectory port) built from what
 * discovery found: the SMP's verified services, or a static routing entry. An AS4 endpoint whose
 * certificate is not a Peppol Access Point certificate, or whose URL is not https, is left out, as
 * sending would refuse it.
 */
import type { CheckCertificate } from '../certificate-check.ts';
import { BILLING_PROCESS_ID, CREDIT_NOTE_DOCUMENT_TYPE_ID, INVOICE_DOCUMENT_TYPE_ID } from '../identifiers.ts';
import type { DocumentCapability, ParticipantLookup } from '../participants.ts';
import { capabilitiesOf } from './capabilities.ts';
import { AS4_TRANSPORT_PROFILE, isAs4TransportUrl, readEndpointCertificate } from './endpoint-choice.ts';
import { participantValue, type ParticipantId } from './participant-id.ts';
import type { ServiceInformation, SmpEndpoint } from './service-metadata.ts';

export async function lookupFromSmp(
  id: ParticipantId,
  smpUrl: string,
  services: ServiceInformation[],
  checkCertificate: CheckCertificate,
  now: Date,
  allowHttp = false,
): Promise<ParticipantLookup> {
  const usable = await Promise.all(
    services.map(async (service) => ({
      ...service,
      processes: await Promise.all(
        service.processes.map(async (p) => ({ ...p, endpoints: await filterAsync(p.endpoints, (e) => acceptable(e, checkCertificate, allowHttp)) })),
      ),
    })),
  );
  const capabilities = capabilitiesOf(usable, now);
  return {
    ...base(id),
    registered: true,
    can_receive: capabilities.can_receive_invoice || capabilities.can_receive_credit_note,
    ...capabilities,
    smp_url: smpUrl,
  };
}

/** A static entry: the operator says the participant receives invoices and credit notes there. */
export function lookupFromStatic(id: ParticipantId, url: string, certificateAccepted: boolean): ParticipantLookup {
  const endpoint_urls = certificateAccepted ? [url] : [];
  const transport_profiles = certificateAccepted ? [AS4_TRANSPORT_PROFILE] : [];
  const document_types: DocumentCapability[] = [
    { document_type_id: INVOICE_DOCUMENT_TYPE_ID, name: 'Peppol BIS Billing 3.0 Invoice', process_ids: [BILLING_PROCESS_ID], transport_profiles, endpoint_urls },
    { document_type_id: CREDIT_NOTE_DOCUMENT_TYPE_ID, name: 'Peppol BIS Billing 3.0 Credit Note', process_ids: [BILLING_PROCESS_ID], transport_profiles, endpoint_urls },
  ];
  return {
    ...base(id),
    registered: true,
    can_receive: certificateAccepted,
    can_receive_invoice: certificateAccepted,
    can_receive_credit_note: certificateAccepted,
    document_types,
    smp_url: null,
  };
}

export function notRegistered(id: ParticipantId, smpUrl: string | null): ParticipantLookup {
  return {
    ...base(id),
    registered: false,
    can_receive: false,
    can_receive_invoice: false,
    can_receive_credit_note: false,
    document_types: [],
    smp_url: smpUrl,
  };
}

/** Other transport profiles are listed as they are; an AS4 endpoint needs an https URL and an Access Point certificate. */
async function acceptable(endpoint: SmpEndpoint, checkCertificate: CheckCertificate, allowHttp: boolean): Promise<boolean> {
  if (endpoint.transportProfile !== AS4_TRANSPORT_PROFILE) return true;
  if (!isAs4TransportUrl(endpoint.url, allowHttp)) return false;
  const certificate = readEndpointCertificate(endpoint.certificate);
  return certificate !== null && (await checkCertificate(certificate, 'ap')).ok;
}

async function filterAsync<T>(items: T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const verdicts = await Promise.all(items.map(keep));
  return items.filter((_, i) => verdicts[i]);
}

function base(id: ParticipantId) {
  return { participant_id: participantValue(id), scheme: id.scheme, identifier: id.value, source: 'smp' as const };
}
