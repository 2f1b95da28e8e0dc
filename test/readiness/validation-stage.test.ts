import { expect } from 'chai';
import type { Validator } from '../../src/platform/validation/index.ts';
import { trackedValidator, type ValidationStage } from '../../src/platform/readiness/validation-stage.ts';

const validator = (schemas: Partial<Validator['schemasAvailable']> = {}): Validator => ({
  schemasAvailable: { xsd_invoice: true, schematron_peppol: true, schematron_slovak: true, ...schemas },
  validate: () => Promise.reject(new Error('not used')),
  close: () => Promise.resolve(),
});

describe('readiness: the validation stage', () => {
  it('not_started, then compiling while the first use waits, then ready with how long it took', async () => {
    let finish!: (v: Validator) => void;
    const made = new Promise<Validator>((resolve) => (finish = resolve));
    const seen: ValidationStage['state'][] = [];
    const tracked = trackedValidator(() => made, true, (s) => seen.push(s.state));
    expect(tracked.stage().state).to.equal('not_started');
    const first = tracked.source();
    void tracked.source(); // a second caller starts nothing new
    expect(tracked.stage().state).to.equal('compiling');
    finish(validator());
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.stage()).to.include({ state: 'ready' });
    expect(tracked.stage().missing).to.deep.equal([]);
    expect(tracked.stage().seconds).to.be.a('number');
    expect(seen).to.deep.equal(['compiling', 'ready']);
  });

  it('unavailable, naming what is missing, when a rule set cannot run', async () => {
    const tracked = trackedValidator(() => Promise.resolve(validator({ xsd_invoice: false, schematron_peppol: false })), true);
    await tracked.source();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.stage()).to.deep.include({ state: 'unavailable', missing: ['xsd', 'peppol'] });
  });

  it('unavailable from the start when the code lists did not load (no invoice can be checked)', async () => {
    const tracked = trackedValidator(() => Promise.resolve(validator()), false);
    expect(tracked.stage()).to.deep.include({ state: 'unavailable', missing: ['code_lists'] });
    await tracked.source();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.stage()).to.deep.include({ state: 'unavailable', missing: ['code_lists'] });
  });

  it('unavailable when the engine cannot start at all', async () => {
    const tracked = trackedValidator(() => Promise.reject(new Error('no workers')), true);
    await tracked.source().catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.stage()).to.deep.include({ state: 'unavailable', missing: ['xsd', 'peppol', 'slovak'] });
  });
});
