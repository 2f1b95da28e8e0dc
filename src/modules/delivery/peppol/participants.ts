/**
 * The participant directory port: can a Peppol participant receive, and which document types.
 * The sandbox answers from this service's own companies; the SMP adapter (src/modules/delivery/peppol/smp/)
 * answers from the Peppol SML (BDXL) and the participant's SMP. POST /tools/peppol-check
 * returns a ParticipantLookup as it is.
 */

/** One document type a participant accepts, with the processes and endpoints it accepts it on. */
export interface DocumentCapability {
  /** the Peppol document type identifier value (busdox-docid-qns), e.g. `urn:oasis:…:Invoice-2::Invoice##…::2.1` */
  document_type_id: string;
  /** a readable name when the type is a known one (`Peppol BIS Billing 3.0 Invoice`), else null */
  name: string | null;
  /** process identifier values (cenbii-procid-ubl), e.g. `urn:fdc:peppol.eu:2017:poacc:billing:01:1.0` */
  process_ids: string[];
  /** AS4 transport profiles offered, e.g. `peppol-transport-as4-v2_0` (empty in the sandbox) */
  transport_profiles: string[];
  /** Access Point endpoint URLs (empty in the sandbox) */
  endpoint_urls: string[];
}

export interface ParticipantLookup {
  /** `<scheme>:<identifier>`, the identifier lower-cased as Peppol compares it */
  participant_id: string;
  scheme: string;
  identifier: string;
  /** the directory knows the participant (an SMP answered for it, or it is a company of this service) */
  registered: boolean;
  /** registered and accepting the Peppol BIS Billing 3.0 invoice or credit note */
  can_receive: boolean;
  can_receive_invoice: boolean;
  can_receive_credit_note: boolean;
  document_types: DocumentCapability[];
  source: 'sandbox' | 'smp';
  /** the SMP that answered (SMP adapter only) */
  smp_url: string | null;
}

export interface ParticipantDirectory {
  /**
   * Looks a participant up. An unknown participant is a lookup with `registered: false`, not an
   * error. Throws ParticipantLookupError for an unusable id or an unreachable directory.
   */
  lookup(participantId: string): Promise<ParticipantLookup>;
}

export class ParticipantLookupError extends Error {
  constructor(
    /** `invalid_participant_id` (422) or `participant_lookup_failed` (502: DNS or SMP unreachable or unusable) */
    readonly code: 'invalid_participant_id' | 'participant_lookup_failed',
    message: string,
  ) {
    super(message);
    this.name = 'ParticipantLookupError';
  }
}
