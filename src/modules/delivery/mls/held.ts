import type { MlsIssuedState } from '../../../../commands/mls/issued.ts';
import type { EventStore } from '../../../platform/eventstore/port.ts';
import type { Known } from '../../../platform/handling/command-handler.ts';
import { heldPerStore, type HeldStates } from '../../../platform/handling/held-states.ts';

/**
 * An answer's MLS stream as the receipt that issued it left it: its send attempt decides on it
 * rather than reading the stream back (three reads per SAPI-SK send: the invoice's MLS, both
 * TDDs'). Held until sent; a held state may be behind another instance's write, which its append
 * at that revision shows as a conflict (see HeldStates).
 */
export const heldMls: (store: EventStore) => HeldStates<MlsIssuedState, null> = heldPerStore({ entries: 1000, bytes: 16 * 1024 * 1024 });

/** The held state of an issued MLS as its receipt wrote it (`bytes`: its documents' length). */
export function keepIssuedMls(store: EventStore, streamId: string, known: Known<MlsIssuedState>): void {
  const mls = known.state.status === 'issued' ? known.state.issued.mls : null;
  if (!mls) return; // nothing to send: no attempt will ask
  heldMls(store).keep(streamId, known, null, 2 * (mls.document.length + (mls.fallback?.document.length ?? 0)));
}
