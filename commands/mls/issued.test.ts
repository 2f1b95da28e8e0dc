import { expect } from 'chai';
import type { MlsIssued, MlsSendFailed, MlsSent } from '../../events/mls.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { mlsIssuedDecider, mlsIssuedStream, type MlsIssuedCommand } from './issued.ts';
import { mlsReceivedDecider, mlsReceivedStream, type MlsReceivedCommand } from './received.ts';

const AT = '2026-11-29T10:00:00.000Z';
const LATER = '2026-11-29T10:00:05.000Z';
const policy = { maxAttempts: 3, retryBaseMs: 1000 };
const given = specFor(mlsIssuedDecider);

const issue = (overrides: Partial<Extract<MlsIssuedCommand, { type: 'IssueMls' }>> = {}): MlsIssuedCommand => ({
  type: 'IssueMls', referenced_instance_id: 'doc-1', document_type_id: 'invoice', sender_participant_id: '0245:1111111111',
  receiver_participant_id: '0245:2222222222', response_code: 'AP', description: null, issues: [],
  mls: { mls_id: 'mls-1', from: '0242:000002', to: '0242:000001', document: '<ApplicationResponse/>', fallback: null }, at: AT, ...overrides,
});
const issuedEvent = (command = issue()): MlsIssued => {
  if (command.type !== 'IssueMls') throw new Error('not an issue');
  const { type: _type, at, ...data } = command;
  return { type: 'MlsIssued', data: { ...data, issued_at: at } };
};
const sentEvent: MlsSent = { type: 'MlsSent', data: { referenced_instance_id: 'doc-1', mls_id: 'mls-1', to: '0242:000001', sent_at: LATER } };
const failed = (attempt: number, retry_at: string | null): MlsSendFailed => ({
  type: 'MlsSendFailed', data: { referenced_instance_id: 'doc-1', mls_id: 'mls-1', attempt, reason: 'down', retry_at, failed_at: LATER },
});

describe('MLS issued by corner 3 (one per received document)', () => {
  it('records the answer once: a document received again is not answered again (OP-MLS-02)', () => {
    given([]).when(issue()).then([issuedEvent()]);
    given([issuedEvent()]).when(issue({ response_code: 'RE' })).then([]);
  });

  it('an answer with no MLS owed (accepted, failures only asked) has nothing to send', () => {
    const none = issuedEvent(issue({ mls: null }));
    given([none]).when({ type: 'RecordMlsSent', at: LATER }).then([]);
    const state = fold(mlsIssuedDecider, [none]);
    expect(state.status === 'issued' && state.sending).to.equal('none');
  });

  it('is sent once; failed attempts are numbered and retried by the policy until the last', () => {
    given([issuedEvent()]).when({ type: 'RecordMlsSent', at: LATER }).then([sentEvent]);
    given([issuedEvent(), sentEvent]).when({ type: 'RecordMlsSent', at: LATER }).then([]);
    given([issuedEvent()]).when({ type: 'RecordMlsSendFailed', reason: 'down', permanent: false, policy, at: LATER }).then([failed(1, '2026-11-29T10:00:06.000Z')]);
    given([issuedEvent(), failed(1, 'x'), failed(2, 'y')]).when({ type: 'RecordMlsSendFailed', reason: 'down', permanent: false, policy, at: LATER }).then([failed(3, null)]);
    const state = fold(mlsIssuedDecider, [issuedEvent(), failed(1, 'x'), failed(2, 'y'), failed(3, null)]);
    expect(state.status === 'issued' && state.sending).to.equal('failed');
  });

  it('records where it went: MLS_TO, or the sending Access Point\'s SPID when nobody served MLS_TO', () => {
    given([issuedEvent()]).when({ type: 'RecordMlsSent', to: '0242:000009', at: LATER }).then([{ ...sentEvent, data: { ...sentEvent.data, to: '0242:000009' } }]);
  });

  it('a receiver nobody serves ends the sending at once', () => {
    given([issuedEvent()]).when({ type: 'RecordMlsSendFailed', reason: 'no such participant', permanent: true, policy, at: LATER })
      .then([{ ...failed(1, null), data: { ...failed(1, null).data, reason: 'no such participant' } }]);
  });

  it('names its streams by digests of ids any sender chooses', () => {
    expect(mlsIssuedStream('a'.repeat(5000))).to.match(/^mls-out-[0-9a-f-]{36}$/);
    expect(mlsReceivedStream('x y')).to.match(/^mls-in-[0-9a-f-]{36}$/);
  });
});

describe('MLS received by corner 2 (each kept once)', () => {
  const record: MlsReceivedCommand = {
    type: 'RecordMlsReceived', message_id: 'mls-1', mls_id: 'mls-1', sender: '0242:000002', referenced_instance_id: 'doc-1', response_code: 'RE',
    description: 'Rejected', issues: [{ location: 'NA', description: '[BR-01] x', reason: 'BV' }], matched: null, repeat: false, at: AT,
  };
  it('keeps an MLS whatever it matched; the same message again is nothing new', () => {
    const { type: _type, at, ...data } = record;
    specFor(mlsReceivedDecider)([]).when(record).then([{ type: 'MlsReceived', data: { ...data, received_at: at } }]);
    specFor(mlsReceivedDecider)([{ type: 'MlsReceived', data: { ...data, received_at: at } }]).when({ ...record, matched: { kind: 'invoice', id: 'i1' } }).then([]);
  });
});
