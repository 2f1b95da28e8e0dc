import { expect } from 'chai';
import { eventually } from './poll.ts';

describe('eventually', () => {
  it('returns the first value the condition holds for', async () => {
    let n = 0;
    expect(await eventually(async () => ++n, (v) => v >= 3, { everyMs: 1 })).to.equal(3);
  });

  it('fails on time-out, naming the condition and the last value, instead of returning it', async () => {
    let caught: unknown;
    try {
      await eventually(async () => ({ status: 'queued' }), (i) => i.status === 'delivered', { withinMs: 30, everyMs: 5 });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(Error);
    expect((caught as Error).message).to.match(/^eventually: .*i\.status ?=== ?["']delivered["'].* did not hold within 30 ms; last value: \{ status: 'queued' \}$/);
  });

  it('names the condition by its label when one is given', async () => {
    let caught: unknown;
    try {
      await eventually(async () => 1, (v) => v > 1, { withinMs: 10, everyMs: 5, what: 'a second send' });
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).to.match(/^eventually: a second send did not hold within 10 ms; last value: 1$/);
  });
});
