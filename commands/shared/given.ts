import { expect } from 'chai';
import { DomainError } from './domain-error.ts';
import { fold, type Decider, type DomainEvent } from './decider.ts';

/** Any refusal's class: DomainError, InvalidFields, InvoiceRuleViolation, … */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a constructor of any arity
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;

/**
 * Given/When/Then for any decider: given past events, when a command, then the new events, no
 * events at all, or a refusal. A refusal is a DomainError by its spec code (and extra), or any
 * error class with a matcher that asserts on what identifies it (its fields, its rules).
 */
export function specFor<Command, Event extends DomainEvent<string, object>, State>(decider: Decider<Command, Event, State>) {
  return (history: Event[]) => ({
    when(command: Command) {
      const run = () => decider.decide(command, fold(decider, history));
      const refusal = (): unknown => {
        let events: Event[];
        try {
          events = run();
        } catch (error) {
          return error;
        }
        return expect.fail(`expected a refusal, but the decider decided ${JSON.stringify(events.map((e) => e.type))}`);
      };
      function thenThrows(code: string, extra?: Record<string, unknown>): DomainError;
      function thenThrows<E extends Error>(type: ErrorClass<E>, matches?: (error: E) => void): E;
      function thenThrows<E extends Error>(expected: string | ErrorClass<E>, match?: Record<string, unknown> | ((error: E) => void)): DomainError | E {
        const caught = refusal();
        if (typeof expected === 'string') {
          expect(caught, `expected DomainError ${expected}`).to.be.instanceOf(DomainError);
          const error = caught as DomainError;
          expect(error.code).to.equal(expected);
          if (match) expect(error.extra).to.deep.include(match);
          return error;
        }
        expect(caught, `expected ${expected.name}`).to.be.instanceOf(expected);
        if (typeof match === 'function') match(caught as E);
        return caught as E;
      }
      return {
        then(expected: Event[]) {
          expect(run()).to.deep.equal(expected);
        },
        /** the command is accepted and changes nothing (an idempotent repeat) */
        thenNothingHappened() {
          expect(run(), 'expected no events').to.deep.equal([]);
        },
        thenThrows,
      };
    },
  });
}
