import { creditNoteAllowance } from '../../../projections/credit-note-allowance/projector.ts';
import { creditNoteRoutes, type CreditNoteRouteDeps } from './routes.ts';
import { creditNoteCompletionReactor } from './reactors/completion.ts';
import { creditNoteOutcomeReactor } from './reactors/outcomes.ts';
import type { Module } from '../module.ts';

/** How long a reservation may wait for its credit note's stream before it is given back (EventStoreDB only ever needs it). */
const COMPLETION_GRACE_MS = 5 * 60_000;

/** Credit notes: the credit-note and void routes, what an invoice has left to credit, and what comes back from delivery. */
export function creditNotesModule(deps: CreditNoteRouteDeps): Module {
  // only EventStoreDB writes the reservation and the credit note apart; Postgres and PGlite never leave one alone
  const completion = deps.config.eventstoreUrl ? [creditNoteCompletionReactor({ ...deps, graceMs: COMPLETION_GRACE_MS })] : [];
  return { routes: creditNoteRoutes(deps), projectors: [creditNoteAllowance], reactors: [creditNoteOutcomeReactor(deps), ...completion] };
}
