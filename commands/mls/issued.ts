import type { MlsIssued, MlsSendFailed, MlsSent } from '../../events/mls.ts';
import { nextAttemptAt, type RetryPolicy } from '../invoices/delivery-retries.ts';
import type { Decider } from '../shared/decider.ts';
import { stableUuid } from '../shared/stable-id.ts';

/**
 * Corner 3's answer to one received business document, and the sending of its MLS. One stream per
 * answered document (its SBDH instance identifier, which any sender chooses: hence the digest), so
 * a document received twice is answered once (OP-MLS-02).
 */
export const mlsIssuedStream = (referencedInstanceId: string): string => `mls-out-${stableUuid('mls-out', referencedInstanceId)}`;

export type MlsIssuedCommand =
  | ({ type: 'IssueMls'; at: string } & Omit<MlsIssued['data'], 'issued_at'>)
  /** `to`: where it went (MLS_TO, or the sending Access Point's SPID when nobody served MLS_TO) */
  | { type: 'RecordMlsSent'; to?: string; at: string }
  /** `permanent`: the MLS can never be sent (nobody serves its receiver); otherwise retried by the policy */
  | { type: 'RecordMlsSendFailed'; reason: string; permanent: boolean; policy: RetryPolicy; at: string };

export type MlsIssuedEvent = MlsIssued | MlsSent | MlsSendFailed;

export type MlsIssuedState =
  | { status: 'none' }
  | {
      status: 'issued';
      issued: MlsIssued['data'];
      /** pending while an MLS is owed and not yet taken; `none` when none was owed */
      sending: 'pending' | 'sent' | 'failed' | 'none';
      attempts: number;
      next_attempt_at: string | null;
    };

export const mlsIssuedDecider: Decider<MlsIssuedCommand, MlsIssuedEvent, MlsIssuedState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'IssueMls': {
        if (state.status !== 'none') return []; // answered already: one MLS per document
        const { type: _type, at, ...data } = command;
        return [{ type: 'MlsIssued', data: { ...data, issued_at: at } }];
      }
      case 'RecordMlsSent': {
        if (state.status !== 'issued' || state.sending !== 'pending' || !state.issued.mls) return [];
        const { mls, referenced_instance_id } = state.issued;
        return [{ type: 'MlsSent', data: { referenced_instance_id, mls_id: mls.mls_id, to: command.to ?? mls.to, sent_at: command.at } }];
      }
      case 'RecordMlsSendFailed': {
        if (state.status !== 'issued' || state.sending !== 'pending' || !state.issued.mls) return [];
        const attempt = state.attempts + 1;
        const retryAt = command.permanent ? null : nextAttemptAt(command.policy, attempt, command.at);
        const { mls, referenced_instance_id } = state.issued;
        return [{ type: 'MlsSendFailed', data: { referenced_instance_id, mls_id: mls.mls_id, attempt, reason: command.reason, retry_at: retryAt, failed_at: command.at } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'MlsIssued':
        return { status: 'issued', issued: event.data, sending: event.data.mls ? 'pending' : 'none', attempts: 0, next_attempt_at: null };
      case 'MlsSent':
        return state.status === 'issued' ? { ...state, sending: 'sent', next_attempt_at: null } : state;
      case 'MlsSendFailed':
        return state.status === 'issued'
          ? { ...state, attempts: event.data.attempt, sending: event.data.retry_at === null ? 'failed' : 'pending', next_attempt_at: event.data.retry_at }
          : state;
    }
  },
};
