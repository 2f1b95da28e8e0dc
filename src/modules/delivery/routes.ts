import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { ErrorBody, InvoiceRulesBody, Uuid } from '../../../schemas/common/index.ts';
import { Invoice } from '../../../schemas/invoices.ts';
import { markInvoiceSent, sendInvoice, type DeliveryDeps } from './delivery.ts';
import { companyOf } from '../invoices/index.ts';
import { withCodeLists, type InvoicingDeps } from '../invoices/index.ts';
import type { PeppolNetwork } from './peppol/peppol-network.ts';
import type { UsageCounts } from '../usage/index.ts';
import { getInvoice } from '../../../projections/invoices/queries.ts';
import { invoiceBody } from '../invoices/index.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { idempotent } from '../idempotency/index.ts';
import { recoverSend } from './recovery.ts';
import { ETAG_HEADER, ifMatchHeader } from '../../platform/http/index.ts';

const InvoiceParams = Type.Object({ company_id: Uuid, invoice_id: Uuid });
const notFound = { description: '`company_not_found` / `invoice_not_found` (also for another organisation’s, or another company’s)', schema: ErrorBody };
const SendAccepted = Type.Object({
  invoice_id: Uuid,
  status: Type.String({ description: '`queued`' }),
  message: Type.String(),
});
const MarkSentBody = Type.Object({
  delivered_at: Type.Optional(Type.String({ format: 'date-time', description: 'when the buyer got the invoice; default now' })),
  note: Type.Optional(Type.String({ maxLength: 1000, description: 'how it was delivered (e-mail, paper, portal); kept in the history' })),
}, { additionalProperties: false });

const queuedAnswer = (invoiceId: string, status: string) => ({
  status: 202, body: { invoice_id: invoiceId, status, message: 'Invoice queued for Peppol delivery and the FS copy' },
});

/** Send and mark-sent: the two ways an invoice leaves draft for good. */
export function invoiceDeliveryRoutes(deps: InvoicingDeps & { network: PeppolNetwork; usage: UsageCounts }): Route[] {
  const delivering = (): DeliveryDeps => ({ ...withCodeLists(deps), network: deps.network, usage: deps.usage });
  const { projections, config, readModels } = deps;

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/send', operationId: 'sendInvoice', tags: ['delivery'], auth: 'api', permission: 'invoices.send',
      summary: 'Queue the invoice for Peppol delivery and the FS copy',
      description: [
        'From draft, validated or approved, when the business rules pass (and both parties have a Peppol ID): the invoice becomes `queued` (202),',
        'an audit entry `sent_peppol` PENDING is written, and two background jobs start: Peppol delivery to the buyer and the tax data document to FS.',
        'Follow the status: queued → sent_peppol → delivered → sent_fs → fs_acknowledged (both legs done); failed or rejected end it.',
        '`peppol_delivery` and `c5` on the invoice show each leg. If-Match is optional (412 when stale).',
        'Any other status: 409 invalid_status, and so is a document whose approval a change voided (PUT after approval) until a new request',
        'is approved (`approval_id`, `approval_status` in the detail). When our Peppol gateway cannot take documents right now: 502 peppol_delivery_failed,',
        'nothing is queued and the send is safe to retry. The tax data document goes to FS (corner 5) over Peppol after the send: a failed filing is',
        'retried and shown in `c5`, never a 502.',
      ].join(' '),
      params: InvoiceParams,
      headerDocs: [ifMatchHeader('optional: the invoice version read; 412 when stale')],
      responses: {
        202: { description: 'queued', schema: SendAccepted },
        404: notFound,
        409: { description: '`invalid_status` (carries status; `approval_id` and `approval_status` when a change voided the approval)', schema: ErrorBody },
        412: { description: '`version_mismatch`', schema: ErrorBody },
        422: { description: 'business rules fail: {message, errors[], warnings[]}, errors[] only what refuses the send; nothing is queued', schema: InvoiceRulesBody },
        502: { description: '`peppol_delivery_failed`: retry the send', schema: ErrorBody },
      },
      async handle({ params, actor, requestId, ifMatch }) {
        await companyOf(deps, actor, params.company_id);
        const sent = await sendInvoice(delivering(), { actor, requestId, companyId: params.company_id, invoiceId: params.invoice_id, expectedVersion: ifMatch });
        if (sent.position) await projections.caughtUp(sent.position, config.readYourWritesTimeoutMs, ['invoices']);
        return queuedAnswer(params.invoice_id, sent.status);
      },
    }), { recover: recoverSend(deps, (invoiceId) => queuedAnswer(invoiceId, 'queued')) }),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/mark-sent', operationId: 'markInvoiceSent', tags: ['delivery'], auth: 'api', permission: 'invoices.send',
      summary: 'Record that the invoice reached the buyer outside Peppol; it becomes delivered',
      description: [
        'For an invoice finished by hand (e-mailed as PDF, handed over on paper): from draft, validated or approved, or failed when its Peppol',
        'delivery failed. Nothing is sent over Peppol and no tax data document is filed by this route; the Peppol leg shows `manual`.',
        'Marking again changes nothing. If-Match is optional (412 when stale). Other statuses: 409 invalid_status, and so is a document whose',
        'approval a change voided, until a new request is approved.',
      ].join(' '),
      params: InvoiceParams, body: MarkSentBody, bodyOptional: true,
      headerDocs: [ifMatchHeader('optional: the invoice version read; 412 when stale')],
      responses: {
        200: { description: 'the invoice, now delivered', schema: Invoice, headers: [ETAG_HEADER] },
        404: notFound,
        409: { description: '`invalid_status`', schema: ErrorBody },
        412: { description: '`version_mismatch`', schema: ErrorBody },
      },
      async handle({ params, body, actor, requestId, ifMatch }) {
        await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: params.company_id };
        const marked = await markInvoiceSent(delivering(), {
          actor, requestId, companyId: params.company_id, invoiceId: params.invoice_id, expectedVersion: ifMatch, deliveredAt: body?.delivered_at ?? null, note: body?.note ?? null,
        });
        if (marked.position) await projections.caughtUp(marked.position, config.readYourWritesTimeoutMs, ['invoices']);
        const row = await getInvoice(readModels, scope, params.invoice_id);
        if (!row) throw new DomainError('invoice_not_found', 'invoice not found');
        const invoice = invoiceBody(row, await deps.settlement(row));
        return { status: 200, body: invoice, headers: { etag: `"${invoice.version}"` } };
      },
    })),
  ];
}
