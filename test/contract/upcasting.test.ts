import { expect } from 'chai';
import { UPCASTERS } from '../../events/upcasters.ts';
import { EVENT_VERSIONS, STORED_EVENT_TYPES } from '../../events/versions.ts';
import type { NewEvent, RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { EVENT_CONTRACTS, Upcasting, payloadVersion, type EventContracts } from '../../src/platform/eventstore/upcasting.ts';

const contracts: EventContracts = {
  versions: { Renamed: 3, Plain: 1 },
  upcasters: { Renamed: [({ cents, ...rest }) => ({ ...rest, amount: (Number(cents) / 100).toFixed(2) }), ({ amount, ...rest }) => ({ ...rest, total: amount })] },
};

function recorded(type: string, data: Record<string, unknown>, version?: unknown): RecordedEvent {
  return {
    id: 'e1', streamId: 's', revision: 4, position: 'p', type, data,
    metadata: version === undefined ? { correlationId: 'c' } : { correlationId: 'c', version },
    recordedAt: new Date(0),
  };
}

describe('upcasting (the store read)', () => {
  const upcasting = new Upcasting(contracts);

  it('every version in events/ has its upcasters: one per older version', () => {
    expect(() => new Upcasting(EVENT_CONTRACTS)).not.to.throw();
    for (const type of STORED_EVENT_TYPES) expect(UPCASTERS[type]?.length ?? 0, type).to.equal(EVENT_VERSIONS[type] - 1);
  });

  it('refuses contracts where a version above 1 lacks a step', () => {
    expect(() => new Upcasting({ versions: { Renamed: 3 }, upcasters: { Renamed: [(d) => d] } })).to.throw(/Renamed is at version 3 but has 1 upcasters/);
    expect(() => new Upcasting({ versions: { Renamed: 2 }, upcasters: {} })).to.throw(/Renamed/);
  });

  it('brings a version 1 event (no version in its metadata) up step by step, keeping the rest of it', () => {
    const old = recorded('Renamed', { n: 1, cents: 1250 });
    const up = upcasting.upcast(old);
    expect(up.data).to.deep.equal({ n: 1, total: '12.50' });
    expect(up.metadata).to.deep.equal({ correlationId: 'c', version: 3 });
    expect({ ...up, data: old.data, metadata: old.metadata }).to.deep.equal(old);
    expect(old.data).to.deep.equal({ n: 1, cents: 1250 }); // the stored payload is not changed
  });

  it('brings a version 2 event up from 2', () => {
    expect(upcasting.upcast(recorded('Renamed', { amount: '3.00' }, 2)).data).to.deep.equal({ total: '3.00' });
  });

  it('gives an event at its current version, or of an unchanged type, as the same object (no copy)', () => {
    const current = recorded('Renamed', { total: '1.00' }, 3);
    const plain = recorded('Plain', { cents: 5 });
    expect(upcasting.upcast(current)).to.equal(current);
    expect(upcasting.upcast(plain)).to.equal(plain);
    const page = [current, plain];
    expect(upcasting.upcastAll(page)).to.equal(page);
    expect(page[0]).to.equal(current);
    expect(page[1]).to.equal(plain);
  });

  it('upcasts a page in place, only the named types when given', () => {
    const page = [recorded('Renamed', { cents: 100 }), recorded('Plain', {})];
    expect(upcasting.upcastAll(page)[0]?.data).to.deep.equal({ total: '1.00' });
    const skipped = [recorded('Renamed', {})];
    expect(upcasting.upcastAll(skipped, ['Plain'])[0]?.data).to.deep.equal({});
  });

  it('refuses an event of a version newer than this release knows, and a version that is not one', () => {
    expect(() => upcasting.upcast(recorded('Renamed', {}, 4))).to.throw(/version 4; this release reads it up to version 3/);
    expect(() => upcasting.upcast(recorded('Renamed', {}, '2'))).to.throw(/not a version/);
    expect(payloadVersion({ type: 'X', metadata: {} })).to.equal(1);
  });

  it('marks a new event of a changed type with its current version; any other as it is', () => {
    const event: NewEvent = { id: 'n', type: 'Renamed', data: { total: '1.00' }, metadata: { correlationId: 'c' } };
    expect(upcasting.stamp(event).metadata).to.deep.equal({ correlationId: 'c', version: 3 });
    expect(event.metadata).to.deep.equal({ correlationId: 'c' });
    const plain: NewEvent = { ...event, type: 'Plain' };
    expect(upcasting.stamp(plain)).to.equal(plain);
    const named: NewEvent = { ...event, metadata: { version: 2 } };
    expect(upcasting.stamp(named)).to.equal(named);
  });

  it('does nothing at all while no type has changed', () => {
    const idle = new Upcasting({ versions: { Plain: 1 }, upcasters: {} });
    const events: NewEvent[] = [{ id: 'n', type: 'Plain', data: {}, metadata: {} }];
    expect(idle.idle).to.equal(true);
    expect(idle.stampAll(events)).to.equal(events);
  });
});
