import { expect } from 'chai';
import type { As4MessageReceived } from '../../events/delivery.ts';
import { specFor } from '../shared/given.ts';
import { as4InboundDecider, as4InboundStream, receiptOfRepeat, type As4InboundCommand } from './as4-inbound.ts';

const given = specFor(as4InboundDecider);
const AT = '2026-11-29T10:00:00.000Z';

const record = (overrides: Partial<As4InboundCommand> = {}): As4InboundCommand => ({
  type: 'RecordAs4MessageReceived', message_id: 'm1@POP000001', sender_ap: 'POP000001', original_sender: '0245:1111111111',
  final_recipient: '0245:2222222222', document_type_id: 'doc', process_id: 'proc', receipt_message_id: 'r1@POP000002',
  receipt_content_type: 'application/soap+xml', receipt: '<env:Envelope/>', at: AT, ...overrides,
});
const received = (overrides: Partial<As4MessageReceived['data']> = {}): As4MessageReceived => {
  const { type: _type, at, ...data } = record();
  return { type: 'As4MessageReceived', data: { ...data, received_at: at, ...overrides } };
};

describe('AS4 messages received (corner 3)', () => {
  it('a new eb:MessageId is kept with the receipt it was answered with', () =>
    given([]).when(record()).then([received()]));

  it('the same id from the same Access Point is a repeat: nothing new, the first receipt stays', () =>
    given([received()]).when(record({ receipt_message_id: 'r2@POP000002', receipt: '<other/>' })).then([]));

  it('the same id from another Access Point is refused: as4_message_id_taken', () =>
    given([received()]).when(record({ sender_ap: 'POP000009' })).thenThrows('as4_message_id_taken'));

  it('a repeat is answered the receipt kept; another Access Point never sees it', () => {
    const state = as4InboundDecider.evolve(as4InboundDecider.initialState, received());
    expect(receiptOfRepeat(as4InboundDecider.initialState, 'POP000001', 'm1')).to.equal(null);
    expect(receiptOfRepeat(state, 'POP000001', 'm1')).to.deep.equal({ contentType: 'application/soap+xml', receipt: '<env:Envelope/>' });
    expect(() => receiptOfRepeat(state, 'POP000009', 'm1')).to.throw().with.property('code', 'as4_message_id_taken');
  });

  it('one stream per message id, whatever characters the id holds', () => {
    expect(as4InboundStream('a<b>@c')).to.match(/^as4-in-[0-9a-f-]{36}$/);
    expect(as4InboundStream('a<b>@c')).to.equal(as4InboundStream('a<b>@c'));
    expect(as4InboundStream('a<b>@c')).not.to.equal(as4InboundStream('a<b>@d'));
  });
});
