import { expect } from 'chai';
import { invalidCredentialGuard } from '../../src/platform/limits/invalid-credential-guard.ts';
import { createMemoryStore } from '../../src/platform/limits/memory-store.ts';
import type { BucketStore } from '../../src/platform/limits/bucket-store.ts';
import { capturingLogger } from './support.ts';

describe('invalid API keys from one IP', () => {
  let nowMs = 0;
  const setup = () => {
    nowMs = 0;
    const { logger } = capturingLogger();
    return invalidCredentialGuard({ store: createMemoryStore({ now: () => nowMs }), log: logger });
  };
  const fail = async (guard: ReturnType<typeof setup>, ip: string, times: number) => {
    for (let i = 0; i < times; i++) await guard.failed(ip);
  };

  it('lets an IP fail 9 times without blocking it', async () => {
    const guard = setup();
    await fail(guard, '198.51.100.7', 9);
    expect((await guard.check('198.51.100.7')).blocked).to.equal(false);
  });

  it('blocks an IP after 10 invalid keys, for 30 s before the next try', async () => {
    const guard = setup();
    await fail(guard, '198.51.100.7', 10);
    expect(await guard.check('198.51.100.7')).to.deep.equal({ blocked: true, retryAfterSeconds: 30 });
    expect((await guard.check('198.51.100.8')).blocked, 'another IP').to.equal(false);
  });

  it('allows one more try every 30 s while the IP keeps failing', async () => {
    const guard = setup();
    await fail(guard, 'ip', 10);
    nowMs = 30_000;
    expect((await guard.check('ip')).blocked).to.equal(false);
    await guard.failed('ip');
    expect((await guard.check('ip')).blocked).to.equal(true);
  });

  it('answers each failure with whether it blocked the key: the tenth does, a failure refused already does not block anew', async () => {
    const guard = setup();
    for (let i = 0; i < 9; i++) expect(await guard.failed('ip'), `failure ${i + 1}`).to.deep.equal({ blocked: false, retryAfterSeconds: 0 });
    expect(await guard.failed('ip')).to.deep.equal({ blocked: true, retryAfterSeconds: 30 });
    expect(await guard.failed('ip')).to.deep.equal({ blocked: false, retryAfterSeconds: 0 });
    nowMs = 30_000;
    expect(await guard.failed('ip')).to.deep.equal({ blocked: true, retryAfterSeconds: 30 });
  });

  it('forgives an IP fully after 5 quiet minutes', async () => {
    const guard = setup();
    await fail(guard, 'ip', 10);
    nowMs = 5 * 60_000;
    await fail(guard, 'ip', 9);
    expect((await guard.check('ip')).blocked).to.equal(false);
  });

  it('blocks nobody, and warns once, when the store is unreachable', async () => {
    const { logger, warnings } = capturingLogger();
    const down: BucketStore = {
      take: () => Promise.reject(new Error('down')),
      peek: () => Promise.reject(new Error('down')),
      close: async () => {},
    };
    const guard = invalidCredentialGuard({ store: down, log: logger });
    await fail(guard, 'ip', 20);
    expect((await guard.check('ip')).blocked).to.equal(false);
    expect(warnings()).to.have.length(1);
  });
});
