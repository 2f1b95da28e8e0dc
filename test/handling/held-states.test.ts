import { expect } from 'chai';
import { HeldStates } from '../../src/platform/handling/held-states.ts';

describe('held states', () => {
  it('never goes back to an earlier revision than the one held', () => {
    const held = new HeldStates<string, null>({ entries: 10, bytes: 100 });
    held.keep('s', { state: 'second', revision: 1 }, null, 1);
    held.keep('s', { state: 'first', revision: 0 }, null, 1);
    expect(held.get('s')).to.include({ state: 'second', revision: 1 });
  });

  it('moves a held stream on keeping what was held beside it, and holds nothing new on advance', () => {
    const held = new HeldStates<string, string>({ entries: 10, bytes: 100 });
    held.keep('s', { state: 'accepted', revision: 0 }, 'payload', 7);
    held.advance('s', { state: 'sent', revision: 2 });
    held.advance('other', { state: 'sent', revision: 2 });
    expect(held.get('s')).to.deep.equal({ state: 'sent', revision: 2, extra: 'payload', bytes: 7 });
    expect(held.get('other')).to.equal(undefined);
  });

  it('lets the least recently kept go past its bounds, and never holds what alone exceeds them', () => {
    const held = new HeldStates<string, null>({ entries: 2, bytes: 10 });
    held.keep('a', { state: 'a', revision: 0 }, null, 4);
    held.keep('b', { state: 'b', revision: 0 }, null, 4);
    held.keep('a', { state: 'a', revision: 1 }, null, 4); // kept again: now the most recent
    held.keep('c', { state: 'c', revision: 0 }, null, 4);
    expect(held.get('b')).to.equal(undefined);
    expect(held.get('a')?.revision).to.equal(1);
    expect(held.get('c')).to.not.equal(undefined);
    held.keep('d', { state: 'd', revision: 0 }, null, 11);
    expect(held.get('d')).to.equal(undefined);
    held.keep('e', { state: 'e', revision: 0 }, null, 9); // a and c together with it are over 10 bytes
    expect([held.get('a'), held.get('c')]).to.deep.equal([undefined, undefined]);
    expect(held.get('e')?.state).to.equal('e');
  });
});
