import { Type } from '@sinclair/typebox';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { INVOICE_APPROVALS, approvalsDegraded, getApprovalState } from '../../../projections/approvals/queries.ts';
import { INVOICE_REGISTER } from '../../../projections/invoices/queries.ts';
import { ApprovalAck, ApprovalState, RejectBody } from '../../../schemas/approvals.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { decideApproval, type ApprovalAction, type ApprovalDeps } from './approvals.ts';
import { invoiceVisibleTo } from '../invoices/index.ts';
import { companyOf, type Lookups } from '../invoices/index.ts';
import type { Core } from '../../platform/core.ts';
import { readCurrent } from '../../platform/readmodel/current-read.ts';
import { readModelDegraded } from '../../platform/readmodel/failures.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { ETAG_HEADER, ifMatchHeader } from '../../platform/http/index.ts';

export type ApprovalRouteDeps = ApprovalDeps & Pick<Core, 'readModels' | 'projections' | 'config'> & { lookups: Lookups };

const InvoiceParams = Type.Object({ company_id: Uuid, invoice_id: Uuid });
const notFound = { description: '`company_not_found` / `invoice_not_found` (also for another organisation’s, or another company’s)', schema: ErrorBody };
const stale = { description: '`version_mismatch`: If-Match is not the invoice’s current version', schema: ErrorBody };
const roleRefused = (roles: string) => `\`insufficient_role\` (carries required_roles, role): only ${roles} (an API key acts as admin)`;
const fourEyes = [
  '`reviewer_must_be_user` (carries credential): an API key or OAuth client never approves or rejects, whatever its role: it acts for the organisation, not as a person;',
  '`self_review_not_allowed` (carries approval_id, requested_by, requested_by_person): the person who asked never reviews their own request, whatever their role:',
  'the user who asked, or, when an API key or OAuth client asked, the user who created it (or created the key that created it)',
].join(' ');

/** Four eyes means two people: said once, on every approval route. */
const FOUR_EYES = [
  'Four eyes means two people: a request is approved or rejected only by a signed-in user (admin or approver) who is another person than the',
  'requester. A request made by a user is reviewed by another user; one made by an API key or OAuth client (which act for the organisation)',
  'by a user other than the one who created that key or client; a key or client never reviews.',
  'A change to the invoice after the request or the approval (PUT) voids it: the record shows `voided` and why, and the invoice is sent',
  '(or marked sent) only once a new request is approved (until then 409 invalid_status).',
].join(' ');

const COMMON = [
  'If-Match (the invoice version) is optional: when sent and stale, 412 and nothing changes. The answer carries the new version as ETag;',
  'the invoice (GET, list filter `status`) already shows the new status.',
].join(' ');

/** The approval routes: request-approval, approve, reject, and the approval state. */
export function approvalRoutes(deps: ApprovalRouteDeps): Route[] {
  const { projections, config, readModels } = deps;

  /** Decides the action, waits until the invoice register and the approvals show it, and acknowledges it. */
  async function act(params: { company_id: string; invoice_id: string }, caller: { actor: Actor; requestId: string; ifMatch: number | undefined }, action: ApprovalAction) {
    await companyOf(deps, caller.actor, params.company_id);
    const done = await decideApproval(deps, {
      actor: caller.actor, requestId: caller.requestId, companyId: params.company_id, invoiceId: params.invoice_id, expectedVersion: caller.ifMatch,
    }, action);
    if (done.position) await projections.caughtUp(done.position, config.readYourWritesTimeoutMs, [INVOICE_REGISTER, INVOICE_APPROVALS]);
    const { id, status, reason } = done.approval;
    return { status: 200, body: { id, invoice_id: params.invoice_id, status, reason }, headers: { etag: `"${done.version}"` } };
  }

  return [
    defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/request-approval', operationId: 'requestInvoiceApproval', tags: ['approvals'],
      auth: 'api', permission: 'invoices.request_approval',
      summary: 'Ask for approval: the invoice waits in pending_approval until an approver reviews it',
      description: [
        'From draft or validated (an invoice issued here): the invoice becomes `pending_approval` and the approval record `pending`.',
        'While it is pending the invoice is neither edited (PUT 409) nor sent or marked sent (409 invalid_status); a signed-in admin or approver',
        'who is another person approves it (`approved`, sendable) or rejects it (a draft again). Any other status, a request already pending',
        'included, an approved invoice (edit it first: an edit voids the approval) and a received copy: 409 invalid_status.',
        'Approval is not required to send a draft that never had its approval voided: admins and approvers may send it directly. A new request',
        `replaces the record; earlier ones stay in the invoice's history. ${FOUR_EYES} ${COMMON}`,
      ].join(' '),
      params: InvoiceParams,
      headerDocs: [ifMatchHeader('optional: the invoice version read; 412 when stale')],
      responses: {
        200: { description: 'action acknowledgement: the new request (status `pending`, reason null)', schema: ApprovalAck, headers: [ETAG_HEADER] },
        403: { description: roleRefused('admins and accountants ask for approval'), schema: ErrorBody },
        404: notFound,
        409: { description: '`invalid_status` (carries status)', schema: ErrorBody },
        412: stale,
      },
      handle: ({ params, actor, requestId, ifMatch }) => act(params, { actor, requestId, ifMatch }, { type: 'request' }),
    }),
    defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/approve', operationId: 'approveInvoice', tags: ['approvals'],
      auth: 'api', permission: 'invoices.approve',
      summary: 'Approve the pending request: the invoice becomes approved and may be sent',
      description: [
        'Only from `pending_approval`; any other status (nothing asked, already approved or rejected): 409 invalid_status. The record becomes',
        '`approved` with reviewed_by and reviewed_at; the invoice `approved`, from which it is sent (POST send) or marked sent. Editing an',
        `approved invoice voids the approval and makes it a draft, which needs a new approval before it is sent. ${FOUR_EYES} ${COMMON}`,
      ].join(' '),
      params: InvoiceParams,
      headerDocs: [ifMatchHeader('optional: the invoice version read; 412 when stale')],
      responses: {
        200: { description: 'action acknowledgement (status `approved`, reason null)', schema: ApprovalAck, headers: [ETAG_HEADER] },
        403: { description: `${roleRefused('admins and approvers review')}; ${fourEyes}`, schema: ErrorBody },
        404: notFound,
        409: { description: '`invalid_status` (carries status)', schema: ErrorBody },
        412: stale,
      },
      handle: ({ params, actor, requestId, ifMatch }) => act(params, { actor, requestId, ifMatch }, { type: 'approve' }),
    }),
    defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/reject', operationId: 'rejectInvoice', tags: ['approvals'],
      auth: 'api', permission: 'invoices.approve',
      summary: 'Reject the pending request, saying why: the invoice is a draft again',
      description: [
        'Only from `pending_approval` (else 409 invalid_status). The record becomes `rejected` with the reason (trimmed; 1-1000 characters,',
        'not blank, else 422); the invoice goes back to `draft` (never `rejected`, which is the receiver\'s refusal of a sent invoice), so it',
        `can be corrected (PUT) and asked for approval again. ${FOUR_EYES} ${COMMON}`,
      ].join(' '),
      params: InvoiceParams, body: RejectBody,
      headerDocs: [ifMatchHeader('optional: the invoice version read; 412 when stale')],
      responses: {
        200: { description: 'action acknowledgement (status `rejected`, with the reason)', schema: ApprovalAck, headers: [ETAG_HEADER] },
        403: { description: `${roleRefused('admins and approvers review')}; ${fourEyes}`, schema: ErrorBody },
        404: notFound,
        409: { description: '`invalid_status` (carries status)', schema: ErrorBody },
        412: stale,
      },
      handle: ({ params, body, actor, requestId, ifMatch }) => act(params, { actor, requestId, ifMatch }, { type: 'reject', reason: body.reason }),
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/approval', operationId: 'getInvoiceApproval', tags: ['approvals'],
      auth: 'api', permission: 'invoices.read',
      summary: 'The invoice\'s approval state: its latest request and review, or null',
      description: [
        '`approval` is null when approval was never asked for; otherwise the latest request (`pending`, `approved`, `rejected` or `voided`, with',
        'who and when; reason only when rejected). An invoice changed (PUT) after it was approved shows `voided`, and `voided` says why: the',
        'change, the fields it changed, the total approved and the total now, who and when; it is sent only once a new request is approved.',
        `ETag: the invoice version (If-Match for the actions). Read from the approvals read model, which the actions wait for before they answer. ${FOUR_EYES}`,
      ].join(' '),
      params: InvoiceParams,
      responses: {
        200: { description: 'the approval state', schema: ApprovalState, headers: [ETAG_HEADER] },
        404: notFound,
        503: { description: '`read_model_degraded`: an event of this invoice could not be projected (operators: `projections status`); `read_model_behind`: the invoice is stored at a newer version (`version`) than the read models showed within the read-your-writes bound; read again after `retry_after` seconds', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: params.company_id };
        // the invoice's last event shown by both read models, whichever instance wrote it (readCurrent)
        const [found, degraded] = await readCurrent(deps, {
          stream: invoiceStream(params.invoice_id), projectors: [INVOICE_REGISTER, INVOICE_APPROVALS], resource: 'invoice approval',
          read: () => Promise.all([getApprovalState(readModels, scope, params.invoice_id), approvalsDegraded(readModels, actor.organisationId, params.invoice_id)]),
          visible: () => invoiceVisibleTo(deps, scope, params.invoice_id),
        });
        if (degraded) throw readModelDegraded('invoice approvals');
        if (!found) throw new DomainError('invoice_not_found', 'invoice not found');
        return { status: 200, body: { invoice_id: params.invoice_id, approval: found.approval }, headers: { etag: `"${found.version}"` } };
      },
    }),
  ];
}
