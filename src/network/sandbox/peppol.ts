import type { DataSource } from 'typeorm';
import { findCompanyByParticipant } from '../../../projections/tenancy/queries.ts';
import { PeppolRefusedError, PeppolTransportError, type OutboundPeppolMessage, type PeppolNetwork, type PeppolReceipt } from '../peppol-network.ts';
import { sandboxReceiverRejection } from './receiver-rules.ts';

/**
 * The sandbox Peppol network, a closed loop: a participant registered in this service (a company's
 * peppol_id) is reachable, and a message to it is handed to our own receiving side at once, as a
 * receiving Access Point would take it. Anyone else is unknown. A document whose buyer reference is
 * SANDBOX-REJECT is rejected by its receiver (receiver-rules.ts). Nothing leaves the machine.
 */
export interface PeppolSandbox extends PeppolNetwork {
  /** fault injection for tests: while down, send and ready throw PeppolTransportError */
  faults: { down: boolean };
}

/** What the receiving side does with a message (src/application/inbound.ts); it must be idempotent by message id. */
export type ReceiveMessage = (message: OutboundPeppolMessage) => Promise<void>;

export function sandboxPeppolNetwork(db: DataSource, receive: ReceiveMessage, now: () => Date = () => new Date()): PeppolSandbox {
  const faults = { down: false };
  const up = () => {
    if (faults.down) throw new PeppolTransportError('the sandbox Peppol network is down (fault injected)');
  };
  return {
    faults,
    async ready() {
      up();
    },
    async send(message: OutboundPeppolMessage): Promise<PeppolReceipt> {
      up();
      const receiver = await findCompanyByParticipant(db, message.receiver_participant_id);
      if (!receiver) {
        throw new PeppolRefusedError(`participant ${message.receiver_participant_id} is not registered in the sandbox Peppol network (no company of this service has it)`);
      }
      const rejection = sandboxReceiverRejection(message.envelope);
      if (rejection) throw rejection;
      await receive(message);
      return { message_id: message.message_id, received_at: now().toISOString() };
    },
  };
}
