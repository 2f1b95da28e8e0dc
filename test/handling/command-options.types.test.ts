import { expect } from 'chai';
import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { uniqueClaimDecider } from '../../commands/shared/unique-claim.ts';
import type { EventStore } from '../../src/platform/eventstore/port.ts';
import { handleCommand, ifMatchOr, type CommandOptions, type UniqueClaim } from '../../src/platform/handling/command-handler.ts';
import { streamInTurn } from '../../src/platform/handling/stream-in-turn.ts';
import { randomIds } from '../../src/platform/ports/ids.ts';

/*
 * The command path's impossible combinations are type errors, not run-time throws. tsc checks
 * this file (npm run typecheck): each `@ts-expect-error` fails the type check should its line
 * ever compile. Nothing here runs against a store.
 */

type Added = DomainEvent<'Added', { n: number }>;
type State = { total: number };
const counter: Decider<{ n: number }, Added, State> = {
  initialState: { total: 0 },
  decide: (command) => [{ type: 'Added', data: { n: command.n } }],
  evolve: (state, event) => ({ total: state.total + event.data.n }),
};
const claim: UniqueClaim = {
  decider: uniqueClaimDecider((value) => new DomainError('invoice_number_conflict', value)), scope: 's', value: 'v', holderId: 'h', holderStream: (h) => `holder-${h}`,
};
const known = { state: { total: 1 }, revision: 0 };
const metadata = {};
type Options = CommandOptions<Added, State>;

describe('command options: what does not go together does not type-check', () => {
  it('accepts each way to expect a revision alone', () => {
    const fine: Options[] = [
      { metadata },
      { metadata, expected: { ifMatch: 3 } },
      { metadata, expected: { newStream: true } },
      { metadata, expected: { newStream: true }, claim },
      { metadata, expected: { retry: { onVersionConflict: 5 } } },
      { metadata, expected: { known } },
      { metadata, expected: { known, retry: { onVersionConflict: 5 } } },
      { metadata, expected: { atRevision: 2 } },
      { metadata, expected: ifMatchOr(undefined, { retry: { onVersionConflict: 5 } }) },
      { metadata, expected: ifMatchOr(4, { retry: { onVersionConflict: 5 } }) },
    ];
    expect(fine).to.have.length(10);
  });

  it('refuses the mixes', () => {
    const refused: Options[] = [
      // @ts-expect-error the client's If-Match is never retried
      { metadata, expected: { ifMatch: 3, retry: { onVersionConflict: 5 } } },
      // @ts-expect-error a new stream has no version to match
      { metadata, expected: { ifMatch: 3, newStream: true } },
      // @ts-expect-error a new stream is not read, so not decided again
      { metadata, expected: { newStream: true, retry: { onVersionConflict: 5 } } },
      // @ts-expect-error a held state is not the client's If-Match
      { metadata, expected: { known, ifMatch: 0 } },
      // @ts-expect-error nor a new stream
      { metadata, expected: { known, newStream: true } },
      // @ts-expect-error a revision read beside the command is not retried
      { metadata, expected: { atRevision: 2, retry: { onVersionConflict: 5 } } },
      // @ts-expect-error a claim goes only with a new stream
      { metadata, claim },
      // @ts-expect-error not with If-Match
      { metadata, expected: { ifMatch: 3 }, claim },
      // @ts-expect-error not on a stream read and retried
      { metadata, expected: { retry: { onVersionConflict: 5 } }, claim },
      // @ts-expect-error the old flat options are gone
      { metadata, expectedVersion: 3 },
      // @ts-expect-error likewise
      { metadata, retryOnConflict: 3 },
    ];
    expect(refused).to.have.length(11);
  });

  it('keeps If-Match, a new stream and a claim away from streamInTurn, which decides on the state it holds', () => {
    const deps = { store: {} as EventStore, ids: randomIds };
    const uses = [
      () => streamInTurn(deps, 's', counter, known, { metadata, retry: { onVersionConflict: 2 } }),
      // @ts-expect-error its state is held: no If-Match
      () => streamInTurn(deps, 's', counter, known, { metadata, expected: { ifMatch: 0 } }),
      // @ts-expect-error nor a claim
      () => streamInTurn(deps, 's', counter, known, { metadata, claim }),
      // @ts-expect-error the If-Match helper gives no new stream to a command that has a claim
      () => handleCommand(deps, 's', counter, { n: 1 }, { metadata, expected: ifMatchOr(1, { newStream: true }), claim }),
    ];
    expect(uses).to.have.length(4);
  });
});
