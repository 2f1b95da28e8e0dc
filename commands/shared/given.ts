import { expect } from 'chai';
import { DomainError } from './domain-error.ts';
import { fold, type Decider, type DomainEvent } from './decider.ts';

/** Given/When/Then for any decider: given past events, when a command, then events or a refusal. */
export function specFor<Command, Event extends DomainEvent<string, object>, State>(decider: Decider<Command, Event, State>) {
  return (history: Event[]) => ({
    when(command: Command) {
      const run = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: Event[]) {
          expect(run()).to.deep.equal(expected);
        },
        thenThrows(code: string, extra?: Record<string, unknown>) {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught, `expected DomainError ${code}`).to.be.instanceOf(DomainError);
          const error = caught as DomainError;
          expect(error.code).to.equal(code);
          if (extra) expect(error.extra).to.deep.include(extra);
          return error;
        },
      };
    },
  });
}
