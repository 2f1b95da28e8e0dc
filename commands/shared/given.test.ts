import { AssertionError, expect } from 'chai';
import type { Decider, DomainEvent } from './decider.ts';
import { DomainError } from './domain-error.ts';
import type { DomainErrorCode } from './error-codes.ts';
import { specFor } from './given.ts';
import { InvalidFields } from './invalid-fields.ts';

// A toggle that refuses in each way a decider refuses: a DomainError, InvalidFields, or any other class.
type Toggled = DomainEvent<'Toggled', { on: boolean }>;
type Toggle = { set: boolean | 'bad-field' | 'broken' };
class Broken extends Error {
  constructor(readonly rules: string[]) {
    super('broken');
  }
}
const toggle: Decider<Toggle, Toggled, { on: boolean }> = {
  initialState: { on: false },
  evolve: (_, event) => ({ on: event.data.on }),
  decide(command, state) {
    if (command.set === 'bad-field') throw new InvalidFields([{ loc: ['body', 'set'], msg: 'not a boolean', type: 'value_error', input: 'bad-field' }]);
    if (command.set === 'broken') throw new Broken(['R-1', 'R-2']);
    if (!command.set && !state.on) throw new DomainError('already_off' as DomainErrorCode, 'already off', { on: false }); // a toy decider's own code
    if (command.set === state.on) return []; // switching on again changes nothing
    return [{ type: 'Toggled', data: { on: command.set } }];
  },
};
const given = specFor(toggle);
const on: Toggled = { type: 'Toggled', data: { on: true } };

const fails = (assertion: () => unknown): string => {
  try {
    assertion();
  } catch (error) {
    expect(error).to.be.instanceOf(AssertionError);
    return (error as Error).message;
  }
  return expect.fail('the assertion passed');
};

describe('given/when/then for deciders', () => {
  it('thenNothingHappened: holds when the decider decides no events, fails when it decides some', () => {
    given([on]).when({ set: true }).thenNothingHappened();
    expect(fails(() => given([]).when({ set: true }).thenNothingHappened())).to.match(/expected no events/);
  });

  it('thenThrows by a DomainError code (and extra); another code fails', () => {
    expect(given([]).when({ set: false }).thenThrows('already_off', { on: false })).to.include({ code: 'already_off', message: 'already off' });
    fails(() => given([]).when({ set: false }).thenThrows('already_on'));
    fails(() => given([]).when({ set: false }).thenThrows('already_off', { on: true }));
  });

  it('thenThrows by any error class, with a matcher on what identifies it', () => {
    given([]).when({ set: 'bad-field' }).thenThrows(InvalidFields, (e) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.set']));
    given([]).when({ set: 'broken' }).thenThrows(Broken, (e) => expect(e.rules).to.include('R-2'));
    fails(() => given([]).when({ set: 'broken' }).thenThrows(Broken, (e) => expect(e.rules).to.include('R-3')));
    fails(() => given([]).when({ set: 'broken' }).thenThrows(InvalidFields));
  });

  it('thenThrows fails, naming what was decided, when the decider refuses nothing', () => {
    expect(fails(() => given([]).when({ set: true }).thenThrows(DomainError))).to.include('expected a refusal, but the decider decided ["Toggled"]');
  });
});
