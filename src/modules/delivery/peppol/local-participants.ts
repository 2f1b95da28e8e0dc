import { isOurMlsParticipant, MLS_DOCUMENT_TYPE_ID, SK_TAX_DATA_DOCUMENT_TYPE_ID, sameParticipant } from './identifiers.ts';
import type { OutboundPeppolMessage, PeppolNetwork } from './peppol-network.ts';

/**
 * Under PEPPOL_NETWORK=as4, what this Access Point serves itself is delivered internally, to its
 * own receiving side, as an Access Point does for a participant it serves: an MLS to our own MLS
 * address (our receiving side answering our own sending side), and, with FS_CORNER5=sandbox, a TDD
 * to the FS participant (the sandbox's corner 5, for tests and demos between Access Points; other
 * Access Points reach it over AS4). Everything else goes out.
 */
export function withLocalParticipants(
  network: PeppolNetwork, local: { ourSpis: string; corner5: string | null }, receive: (message: OutboundPeppolMessage) => Promise<void>, now: () => Date,
): PeppolNetwork {
  const isLocal = (message: OutboundPeppolMessage) =>
    (message.document_type_id === MLS_DOCUMENT_TYPE_ID && isOurMlsParticipant(local.ourSpis, message.receiver_participant_id))
    || (local.corner5 !== null && message.document_type_id === SK_TAX_DATA_DOCUMENT_TYPE_ID && sameParticipant(message.receiver_participant_id, local.corner5));
  return {
    ready: () => network.ready(),
    async send(message, signal) {
      if (!isLocal(message)) return network.send(message, signal);
      await receive(message);
      return { message_id: message.message_id, received_at: now().toISOString() };
    },
  };
}
