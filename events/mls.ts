import type { DomainEvent } from './event.ts';

/**
 * Peppol Message Level Status (MLS 1.1, mandatory in Slovakia): the receiving Access Point (corner 3)
 * tells the sending one (corner 2) whether a business document was accepted (AP), acknowledged
 * (AB) or rejected (RE). Both sides of it are events:
 *
 * - as corner 3, what we answered one received business document: its own stream, named by the
 *   document's SBDH instance identifier (at most one MLS per document, OP-MLS-02);
 * - as corner 2, each MLS that reached us: its own stream, named by the MLS message's SBDH
 *   instance identifier, whether it matched something we sent or not.
 */

/** One reason of a rejection (an MLS `cac:LineResponse/cac:Response`). */
export interface MlsIssueRecord {
  /** an XPath in the answered document, or `NA` */
  location: string;
  description: string;
  /** SV syntax, BV rule (fatal), BW rule (warning), FD delivery failed */
  reason: 'SV' | 'BV' | 'BW' | 'FD';
}

/**
 * Corner 3 decided its answer to a received business document. `mls` is null when no MLS is owed
 * (accepted, and the sender asked for failures only); the document was given to the company
 * unless the code is RE.
 */
export type MlsIssued = DomainEvent<
  'MlsIssued',
  {
    /** the answered document's SBDH instance identifier */
    referenced_instance_id: string;
    document_type_id: string;
    /** C1 and C4 of the answered document */
    sender_participant_id: string;
    receiver_participant_id: string;
    response_code: 'AP' | 'AB' | 'RE';
    description: string | null;
    issues: MlsIssueRecord[];
    /** the MLS to send: null when none is owed */
    mls: {
      /** cbc:ID, and the SBDH instance identifier of the message that carries it */
      mls_id: string;
      /** our SPIS participant (C3) and the one it goes to (MLS_TO, else C2's SPIS participant) */
      from: string;
      to: string;
      /** the UBL ApplicationResponse as built, so every attempt sends the same document */
      document: string;
      /**
       * when `to` is the envelope's MLS_TO: the sending Access Point's own SPIS participant and the
       * MLS addressed to it, for when nobody is registered at MLS_TO (4.1: the field is then ignored)
       */
      fallback: { to: string; document: string } | null;
    } | null;
    issued_at: string;
  }
>;

/** The MLS left our Access Point: the receiving Access Point took it. */
export type MlsSent = DomainEvent<'MlsSent', { referenced_instance_id: string; mls_id: string; to: string; sent_at: string }>;

/** One attempt to send the MLS failed; `retry_at` null when it was the last, or cannot succeed. */
export type MlsSendFailed = DomainEvent<
  'MlsSendFailed',
  { referenced_instance_id: string; mls_id: string; attempt: number; reason: string; retry_at: string | null; failed_at: string }
>;

/**
 * An MLS reached our Access Point (as corner 2). `matched` names what it answered, or is null when
 * it answers nothing we sent; `repeat` is true when that document had its MLS already (a second
 * one changes nothing: OP-MLS-02). Kept either way, for the auditor.
 */
export type MlsReceived = DomainEvent<
  'MlsReceived',
  {
    /** the SBDH instance identifier of the message that carried the MLS */
    message_id: string;
    mls_id: string;
    /** C3's SPIS participant, as the MLS states it */
    sender: string;
    referenced_instance_id: string;
    response_code: 'AP' | 'AB' | 'RE';
    description: string | null;
    issues: MlsIssueRecord[];
    matched: { kind: 'invoice' | 'fs_filing' | 'sapi_document' | 'sapi_fs_filing' | 'report'; id: string } | null;
    repeat: boolean;
    received_at: string;
  }
>;

export type MlsEvent = MlsIssued | MlsSent | MlsSendFailed | MlsReceived;

export const MLS_EVENT_TYPES: readonly MlsEvent['type'][] = ['MlsIssued', 'MlsSent', 'MlsSendFailed', 'MlsReceived'];
