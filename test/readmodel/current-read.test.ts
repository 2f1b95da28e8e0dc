import { expect } from 'chai';
import { DomainError } from '../../commands/shared/domain-error.ts';
import type { Core } from '../../src/platform/core.ts';
import { readCurrent } from '../../src/platform/readmodel/current-read.ts';

/** A read model that shows `shown` until the projection reaches the head, then `after`. */
function world(options: { head: { position: string; revision: number } | null; catchesUp: boolean }) {
  const calls: string[] = [];
  let projected = false;
  const deps = {
    config: { readYourWritesTimeoutMs: 50 },
    store: { streamHead: async () => (calls.push('head'), options.head) },
    projections: {
      caughtUp: async () => {
        calls.push('wait');
        projected = options.catchesUp;
        return options.catchesUp;
      },
    },
  } as unknown as Pick<Core, 'store' | 'projections' | 'config'>;
  return { deps, calls, projected: () => projected };
}

describe('readCurrent: a read of one resource shows its stream as it stands', () => {
  describe('without a version on the rows (reads that join read models): wait on the position, then read', () => {
    it('reads after the projectors passed the last event', async () => {
      const w = world({ head: { position: '7', revision: 3 }, catchesUp: true });
      const found = await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => (w.calls.push('read'), w.projected() ? 'new' : 'old'), visible: async () => true });
      expect(found).to.equal('new');
      expect(w.calls).to.deep.equal(['head', 'wait', 'read']);
    });

    it('refuses 503 read_model_behind to whoever may see it when the projectors stay behind', async () => {
      const w = world({ head: { position: '7', revision: 3 }, catchesUp: false });
      const refused = await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => 'old', visible: async () => true }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'read_model_behind' });
      expect((refused as DomainError).extra).to.include({ version: 3 });
    });

    it('answers what the read found (its 404) to someone who may not see the stream', async () => {
      const w = world({ head: { position: '7', revision: 3 }, catchesUp: false });
      expect(await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => null, visible: async () => false })).to.equal(null);
    });

    it('reads at once when there is no stream', async () => {
      const w = world({ head: null, catchesUp: false });
      expect(await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => null, visible: async () => false })).to.equal(null);
      expect(w.calls).to.deep.equal(['head']);
    });
  });

  describe('with a version on the rows: read beside the lookup', () => {
    it('answers the first read when it already shows the last event, without waiting', async () => {
      const w = world({ head: { position: '7', revision: 3 }, catchesUp: false });
      const found = await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => ({ v: 3 }), versionOf: (f) => f.v, visible: async () => true });
      expect(found).to.deep.equal({ v: 3 });
      expect(w.calls).to.not.include('wait');
    });

    it('waits and reads again when the first read is older than the stream', async () => {
      const w = world({ head: { position: '7', revision: 3 }, catchesUp: true });
      const found = await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => ({ v: w.projected() ? 3 : 2 }), versionOf: (f) => f.v, visible: async () => true });
      expect(found).to.deep.equal({ v: 3 });
    });
  });

  describe('when anything found is current (the stream moves on without the caller: reactors)', () => {
    it('answers a found read without looking up the stream', async () => {
      const w = world({ head: { position: '7', revision: 3 }, catchesUp: false });
      const found = await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => (w.calls.push('read'), 'seen'), foundIsCurrent: true, visible: async () => true });
      expect(found).to.equal('seen');
      expect(w.calls).to.deep.equal(['read']);
    });

    it('waits for the stream when the read found nothing yet (written on another instance), and refuses 503 if it stays behind', async () => {
      const w = world({ head: { position: '7', revision: 0 }, catchesUp: true });
      const found = await readCurrent(w.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => (w.calls.push('read'), w.projected() ? 'seen' : null), foundIsCurrent: true, visible: async () => true });
      expect(found).to.equal('seen');
      expect(w.calls).to.deep.equal(['read', 'head', 'wait', 'read']);
      const behind = world({ head: { position: '7', revision: 0 }, catchesUp: false });
      const refused = await readCurrent(behind.deps, { stream: 's', projectors: ['p'], resource: 'thing', read: async () => null, foundIsCurrent: true, visible: async () => true }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'read_model_behind' });
    });
  });
});
