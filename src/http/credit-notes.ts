import { Type } from '@sinclair/typebox';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { allowanceDegraded, getAllowance } from '../../projections/credit-note-allowance/queries.ts';
import { ErrorBody, Uuid } from '../../schemas/common/index.ts';
import { CreditNoteAllowance } from '../../schemas/credit-notes.ts';
import { companyOf } from '../application/lookups.ts';
import type { Lookups } from '../application/lookups.ts';
import type { Core } from '../core.ts';
import { readModelDegraded } from '../readmodel/failures.ts';
import { defineRoute, type Route } from './route.ts';

export function creditNoteRoutes(deps: Pick<Core, 'readModels'> & { lookups: Lookups }): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/credit-notes/allowance', operationId: 'getCreditNoteAllowance', tags: ['credit notes'],
      auth: 'api', permission: 'invoices.read',
      summary: 'What the invoice has left to credit, per VAT bucket and per line',
      description: [
        'Counted as credited: credit notes that are queued or issued; drafts, pending approval, failed and rejected ones are not.',
        'A line\'s left_net/left_vat shrink only through returned_goods credit notes naming it; partial_credit and price_correction reduce only the bucket.',
        '`creditable` answers for every reason at once; a full_reversal is also refused (409) while another credit note of the invoice is queued, which this does not show.',
        'Not creditable: a received invoice, a proforma, a credit note, an invoice not issued yet (draft, validated, approved, pending approval; correct it instead),',
        'a failed one that never reached anyone, and a voided one.',
      ].join(' '),
      params: Type.Object({ company_id: Uuid, invoice_id: Uuid }),
      responses: {
        200: { description: 'the allowance', schema: CreditNoteAllowance },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation\'s or company\'s)', schema: ErrorBody },
        503: { description: '`read_model_degraded`: an event of this invoice could not be projected (operators: `projections status`)', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: params.company_id };
        const [found, degraded] = await Promise.all([getAllowance(deps.readModels, scope, params.invoice_id), allowanceDegraded(deps.readModels, actor.organisationId, params.invoice_id)]);
        if (degraded) throw readModelDegraded('credit-note allowance');
        if (!found) throw new DomainError('invoice_not_found', 404, 'invoice not found');
        return { status: 200, body: found.allowance, headers: { etag: `"${found.version}"` } };
      },
    }),
  ];
}
