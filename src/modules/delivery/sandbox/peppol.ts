import type { DataSource } from 'typeorm';
import { findCompanyByParticipant } from '../../../../projections/tenancy/queries.ts';
import { PeppolRefusedError, PeppolTransportError, type OutboundPeppolMessage, type PeppolNetwork, type PeppolReceipt } from '../peppol/peppol-network.ts';
import { sandboxReceiverRejection } from './receiver-rules.ts';
import { isOurMlsParticipant, MLS_DOCUMENT_TYPE_ID, sameParticipant } from '../peppol/identifiers.ts';

/**
 * The sandbox Peppol network, a closed loop: a participant registered in this service (a company's
 * peppol_id) is reachable, and a message to it is handed to our own receiving side at once, as a
 * receiving Access Point would take it, and so are our own Access Point's MLS address (the MLS our
 * receiving side answers with comes back to our sending side) and corner 5, the Financial
 * Administration's participant (a TDD goes to the sandbox's corner 5, sandbox/corner5.ts, which
 * answers with an MLS). Anyone else is unknown. A document whose buyer reference is
 * SANDBOX-REJECT is rejected by its receiver (receiver-rules.ts). Nothing leaves the machine.
 *
 * Every message that reaches a registered receiver is counted raw, per message id, in
 * `peppol_sandbox_arrivals` (repeats included, before the receiving side drops a duplicate), so a
 * campaign can tell a retransmission (the same id again: arrivals > 1) from a duplicate (a second id).
 */
export interface PeppolSandbox extends PeppolNetwork {
  /**
   * fault injection for tests: while `down`, send and ready throw PeppolTransportError; a send to
   * a participant in `unanswered` never gets an answer (it ends only when its signal aborts), as a
   * receiving Access Point that accepts the connection and then says nothing
   */
  faults: { down: boolean; unanswered: Set<string> };
  /** every message id that reached a receiver, with how often it arrived (repeats included) */
  arrivals(): Promise<PeppolArrival[]>;
}

interface PeppolArrival {
  message_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  arrivals: number;
}

/** What the receiving side does with a message (src/modules/delivery/inbound.ts); it must be idempotent by message id. */
export type ReceiveMessage = (message: OutboundPeppolMessage) => Promise<void>;

/**
 * What the sandbox reaches besides this service's companies: our own MLS address, corner 5 (with
 * its fault switch), and the participant the monthly Peppol Reporting goes to (OpenPeppol's, or
 * PEPPOL_REPORTING_RECEIVER), for which it stands in: a report sent to it is counted as an arrival
 * and handed to our receiving side, which answers it with an MLS AP as OpenPeppol would (a report is
 * no invoice for a company).
 */
export interface SandboxReach {
  ourSpis: string | null;
  corner5: { participant: string; faults: { down: boolean } } | null;
  reportingReceiver?: string;
}

export function sandboxPeppolNetwork(db: DataSource, receive: ReceiveMessage, now: () => Date = () => new Date(), reach: SandboxReach = { ourSpis: null, corner5: null }): PeppolSandbox {
  const { ourSpis, corner5, reportingReceiver } = reach;
  const faults = { down: false, unanswered: new Set<string>() };
  const up = () => {
    if (faults.down) throw new PeppolTransportError('the sandbox Peppol network is down (fault injected)');
  };
  // made on first use, so the sandbox can be built before the read models are open
  let table: Promise<unknown> | undefined;
  const ready = () => (table ??= db.query(`CREATE TABLE IF NOT EXISTS peppol_sandbox_arrivals (
    message_id varchar(200) PRIMARY KEY, sender_participant_id varchar(200) NOT NULL, receiver_participant_id varchar(200) NOT NULL,
    arrivals integer NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL)`).catch((error: unknown) => {
    table = undefined;
    throw error;
  }));
  return {
    faults,
    async ready() {
      up();
    },
    async send(message: OutboundPeppolMessage, signal?: AbortSignal): Promise<PeppolReceipt> {
      up();
      // an MLS to our own Access Point comes back to us, a TDD goes to corner 5; anything else to a company of ours
      const ours = ourSpis !== null && message.document_type_id === MLS_DOCUMENT_TYPE_ID && isOurMlsParticipant(ourSpis, message.receiver_participant_id);
      const toFs = corner5 !== null && sameParticipant(message.receiver_participant_id, corner5.participant);
      if (toFs && corner5.faults.down) throw new PeppolTransportError('corner 5 of the sandbox (FS) is down (fault injected)');
      const toReporting = reportingReceiver !== undefined && sameParticipant(message.receiver_participant_id, reportingReceiver);
      const receiver = ours || toFs || toReporting || (await findCompanyByParticipant(db, message.receiver_participant_id));
      if (!receiver) {
        throw new PeppolRefusedError(`participant ${message.receiver_participant_id} is not registered in the sandbox Peppol network (no company of this service has it)`);
      }
      await ready();
      await db.query(
        `INSERT INTO peppol_sandbox_arrivals (message_id, sender_participant_id, receiver_participant_id, arrivals, first_at, last_at) VALUES ($1, $2, $3, 1, $4, $4)
         ON CONFLICT (message_id) DO UPDATE SET arrivals = peppol_sandbox_arrivals.arrivals + 1, last_at = EXCLUDED.last_at`,
        [message.message_id, message.sender_participant_id, message.receiver_participant_id, now()],
      );
      if (faults.unanswered.has(message.receiver_participant_id)) await noAnswer(message.receiver_participant_id, signal);
      const rejection = sandboxReceiverRejection(message.envelope);
      if (rejection) throw rejection;
      await receive(message);
      return { message_id: message.message_id, received_at: now().toISOString() };
    },
    async arrivals() {
      await ready();
      return db.query('SELECT message_id, sender_participant_id, receiver_participant_id, arrivals FROM peppol_sandbox_arrivals ORDER BY first_at, message_id');
    },
  };
}

/** The receiver that never answers: waits until the sender gives up (its signal), then fails as a timeout would. */
function noAnswer(receiver: string, signal?: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const give = () => reject(new PeppolTransportError(`no answer from the Access Point of ${receiver}`));
    if (signal?.aborted) give();
    else signal?.addEventListener('abort', give, { once: true });
  });
}
