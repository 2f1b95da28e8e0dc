import { Type } from '@sinclair/typebox';
import { peppolReceiptOf, type KeptReceipt } from '../../../commands/invoices/peppol-receipt.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import type { RouteResponseDoc } from '../../platform/http/index.ts';
import { companyOf, loadInvoice, type InvoicingDeps } from '../invoices/index.ts';

const InvoiceParams = Type.Object({ company_id: Uuid, invoice_id: Uuid });

/** A header value as written, or percent-encoded when it holds anything but printable ASCII (a certificate CN may). */
const headerValue = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value));

/** The response headers that name what a kept receipt acknowledges, for the OpenAPI document of both doors. */
export const RECEIPT_HEADERS: NonNullable<RouteResponseDoc['headers']> = [
  { name: 'AS4-Message-Id', description: 'our eb:MessageId, which the receipt\'s RefToMessageId names', schema: Type.String() },
  { name: 'Peppol-Message-Id', description: 'the Peppol message id (the SBDH instance identifier)', schema: Type.String() },
  { name: 'AS4-Receiving-AP', description: 'the receiving Access Point\'s certificate CN (percent-encoded when not ASCII)', schema: Type.String() },
  { name: 'AS4-Sent-At', description: 'when the send was recorded', schema: Type.String({ format: 'date-time' }) },
];

/** The answer of a kept receipt: the signed SOAP envelope as received, and headers naming what it acknowledges. */
export function receiptAnswer(receipt: KeptReceipt) {
  return {
    status: 200,
    body: receipt.receipt,
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'as4-message-id': headerValue(receipt.message_id),
      'peppol-message-id': headerValue(receipt.peppol_message_id),
      'as4-receiving-ap': headerValue(receipt.receiving_ap),
      'as4-sent-at': receipt.sent_at,
    },
  };
}

/**
 * For auditors (issue 38): the receipt the buyer's Access Point signed for the invoice, read from
 * the invoice's own stream like UBL and history, with the same scope and permission as reading it.
 */
export function peppolReceiptRoute(deps: InvoicingDeps): Route {
  return defineRoute({
    method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/peppol-receipt', operationId: 'getInvoicePeppolReceipt', tags: ['delivery'],
    auth: 'api', permission: 'invoices.read',
    summary: 'For auditors: the signed AS4 receipt the receiving Access Point returned for the invoice (an extension; the spec has no such route)',
    description: [
      'The receiver\'s signed ebMS eb:Receipt, the SOAP envelope exactly as it arrived (application/xml, UTF-8): its',
      'NonRepudiationInformation repeats the digests of what was sent, and its signature is the receiving Access Point\'s.',
      'Headers name the AS4 message (`AS4-Message-Id`, our eb:MessageId, which the receipt\'s RefToMessageId names), the',
      'Peppol message id (`Peppol-Message-Id`, the SBDH instance id), the receiving Access Point (`AS4-Receiving-AP`, its',
      'certificate CN, percent-encoded if not ASCII) and when it was sent (`AS4-Sent-At`). 404 `peppol_receipt_not_found`',
      '(with `peppol_status`) when the invoice was not sent over AS4: not sent yet, the sandbox network, marked sent, or received.',
    ].join(' '),
    params: InvoiceParams,
    responses: {
      200: { description: 'the signed eb:Receipt SOAP envelope as received', schema: Type.String(), mediaType: 'application/xml', headers: RECEIPT_HEADERS },
      404: { description: '`company_not_found` / `invoice_not_found` / `peppol_receipt_not_found`', schema: ErrorBody },
    },
    async handle({ params, actor }) {
      await companyOf(deps, actor, params.company_id);
      const { state, events } = await loadInvoice(deps, { organisationId: actor.organisationId, companyId: params.company_id }, params.invoice_id);
      return receiptAnswer(peppolReceiptOf(state, events));
    },
  });
}
