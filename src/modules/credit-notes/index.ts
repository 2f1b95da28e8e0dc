import { creditNoteAllowance } from '../../../projections/credit-note-allowance/projector.ts';
import { creditNoteRoutes, type CreditNoteRouteDeps } from '../../http/credit-notes.ts';
import { creditNoteOutcomeReactor } from '../../reactors/credit-notes/outcomes.ts';
import type { Module } from '../module.ts';

/** Credit notes: the credit-note route and what an invoice has left to credit (void, approvals and payments come next: issue 16). */
export function creditNotesModule(deps: CreditNoteRouteDeps): Module {
  return { routes: creditNoteRoutes(deps), projectors: [creditNoteAllowance], reactors: [creditNoteOutcomeReactor(deps)] };
}
