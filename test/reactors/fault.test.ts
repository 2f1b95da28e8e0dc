import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EFFECTS, faultHook, parseFaultSpec, type Effect } from '../../src/platform/reactors/fault.ts';

/** Calls the hook for `effect` `times` times and returns the calls (1-based) on which it killed. */
function killsOf(env: NodeJS.ProcessEnv, effect: Effect, times: number): number[] {
  const killed: number[] = [];
  let call = 0;
  const hook = faultHook(env, () => killed.push(call), () => undefined);
  for (call = 1; call <= times; call++) hook(effect);
  return killed;
}

describe('fault hook (FAULT_KILL_AFTER_EFFECT)', () => {
  it('is off without the variable: the hook never kills', () => {
    expect(killsOf({}, 'peppol-send', 1000)).to.deep.equal([]);
    expect(killsOf({ FAULT_KILL_AFTER_EFFECT: ' ' }, 'peppol-send', 1000)).to.deep.equal([]);
  });

  it('kills on the n-th effect of the kind named, and on no other kind', () => {
    expect(killsOf({ FAULT_KILL_AFTER_EFFECT: 'fs-submit:#3' }, 'fs-submit', 10)).to.deep.equal([3]);
    expect(killsOf({ FAULT_KILL_AFTER_EFFECT: 'fs-submit:#3' }, 'peppol-send', 10)).to.deep.equal([]);
  });

  it('* arms every effect', () => {
    for (const effect of EFFECTS) expect(killsOf({ FAULT_KILL_AFTER_EFFECT: '*:#1' }, effect, 3)).to.deep.equal([1]);
  });

  it('a probability picks the same moments for the same seed, and others for another seed', () => {
    const a = killsOf({ FAULT_KILL_AFTER_EFFECT: 'webhook-post:0.1', FAULT_SEED: '7' }, 'webhook-post', 1000);
    expect(a).to.deep.equal(killsOf({ FAULT_KILL_AFTER_EFFECT: 'webhook-post:0.1', FAULT_SEED: '7' }, 'webhook-post', 1000));
    expect(a).to.not.deep.equal(killsOf({ FAULT_KILL_AFTER_EFFECT: 'webhook-post:0.1', FAULT_SEED: '8' }, 'webhook-post', 1000));
    expect(a.length).to.be.within(50, 150);
  });

  it('refuses a spec it cannot read rather than running unarmed', () => {
    expect(() => parseFaultSpec('peppol:#1')).to.throw(/unknown effect peppol/);
    expect(() => parseFaultSpec('peppol-send:2')).to.throw(/expected/);
    expect(() => parseFaultSpec('peppol-send:#0')).to.throw(/expected/);
    expect(() => parseFaultSpec('peppol-send:0')).to.throw(/expected/);
    expect(parseFaultSpec('peppol-send:0.25, sapi-fs-submit:#2')).to.deep.equal(new Map<Effect, unknown>([
      ['peppol-send', { kind: 'probability', p: 0.25 }], ['sapi-fs-submit', { kind: 'nth', n: 2 }],
    ]));
  });

  it('writes a line naming the effect to FAULT_KILL_LOG before it kills', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fault-'));
    try {
      const log = path.join(dir, 'kills.jsonl');
      const said: string[] = [];
      let killed = false;
      const hook = faultHook({ FAULT_KILL_AFTER_EFFECT: 'sapi-peppol-send:#1', FAULT_KILL_LOG: log }, () => { killed = said.length === 1; }, (l) => said.push(l));
      hook('sapi-peppol-send', 'message-1');
      expect(killed, 'killed after saying so').to.equal(true);
      const line = JSON.parse((await readFile(log, 'utf8')).trim()) as { fault: string; after: string; detail: string };
      expect(line).to.include({ fault: 'SIGKILL', after: 'sapi-peppol-send', detail: 'message-1' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
