import type { MlsReceived } from '../../events/mls.ts';
import type { Decider } from '../shared/decider.ts';
import { stableUuid } from '../shared/stable-id.ts';

/**
 * Each MLS that reached our Access Point as corner 2, kept whatever it matched: one stream per MLS
 * message (its SBDH instance identifier), so the same message taken twice is recorded once.
 */
export const mlsReceivedStream = (messageId: string): string => `mls-in-${stableUuid('mls-in', messageId)}`;

export type MlsReceivedCommand = { type: 'RecordMlsReceived'; at: string } & Omit<MlsReceived['data'], 'received_at'>;

export type MlsReceivedState = { status: 'none' } | { status: 'received'; received: MlsReceived['data'] };

export const mlsReceivedDecider: Decider<MlsReceivedCommand, MlsReceived, MlsReceivedState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    if (state.status !== 'none') return [];
    const { type: _type, at, ...data } = command;
    return [{ type: 'MlsReceived', data: { ...data, received_at: at } }];
  },
  evolve: (_state, event) => ({ status: 'received', received: event.data }),
};
