import { creditNoteAllowance } from '../../../projections/credit-note-allowance/projector.ts';
import type { Lookups } from '../../application/lookups.ts';
import type { Core } from '../../core.ts';
import { creditNoteRoutes } from '../../http/credit-notes.ts';
import type { Module } from '../module.ts';

/** Credit notes: what an invoice has left to credit (the credit-note route, void, approvals and payments come next: issue 16). */
export function creditNotesModule(deps: Pick<Core, 'readModels'> & { lookups: Lookups }): Module {
  return { routes: creditNoteRoutes(deps), projectors: [creditNoteAllowance], reactors: [] };
}
