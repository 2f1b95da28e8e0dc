/**
 * The Peppol network port: our Access Point's sending side (corner 2 → corner 3, AS4). The
 * sandbox adapter (src/modules/delivery/sandbox/peppol.ts) routes to companies of this service; a real
 * AS4 Access Point implements the same interface.
 */
export interface OutboundPeppolMessage {
  /** SBDH instance identifier; the receiving AP eliminates duplicates by it (AS4 reliability) */
  message_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  document_type_id: string;
  process_id: string;
  /** the SBDH-wrapped business document */
  envelope: string;
}

export interface PeppolReceipt {
  message_id: string;
  received_at: string;
  /**
   * over AS4: our eb:MessageId, the receiver's signed eb:Receipt (the SOAP envelope as received,
   * UTF-8 XML), the proof of what it acknowledged, and the receiving Access Point's certificate CN
   */
  as4?: { message_id: string; receipt: string; receiving_ap: string };
}

export interface PeppolNetwork {
  /**
   * Pushes one message and resolves when the receiving AP has taken it. Throws
   * PeppolTransportError when the transfer failed and may be retried, PeppolRefusedError when it
   * never can succeed (unknown participant, document type not accepted, document refused).
   * `signal` aborts when the attempt has taken too long or the service stops: the send ends then
   * (the caller counts it as a failed attempt, and does not wait for it either way).
   */
  send(message: OutboundPeppolMessage, signal?: AbortSignal): Promise<PeppolReceipt>;
  /** Throws PeppolTransportError when the outbound gateway cannot take messages now. */
  ready(): Promise<void>;
}

export class PeppolTransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeppolTransportError';
  }
}

/** A permanent refusal: retrying the same message cannot help. */
export class PeppolRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeppolRefusedError';
  }
}

/**
 * A permanent refusal the receiving Access Point returned (it cannot read the document, does not
 * serve the participant, or the receiver refused it), as against one our side decided (no such
 * participant): the invoice was rejected (invoice.rejected).
 */
export class PeppolRejectedError extends PeppolRefusedError {
  constructor(
    message: string,
    readonly findings: { rule: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'PeppolRejectedError';
  }
}
