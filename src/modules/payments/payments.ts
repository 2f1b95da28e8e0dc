import { invoiceDecider } from '../../../commands/invoices/decider.ts';
import { paymentDecider, paymentNotFound, type Payment } from '../../../commands/payments/decider.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import type { PaymentMethodPayload } from '../../../events/payments.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { paymentsStream } from '../../../events/payments.ts';
import { getPayment } from '../../../projections/payments/queries.ts';
import type { Core } from '../../platform/core.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels'>;

/** Payments of one document from several requests at once: decided again on the newer stream, never a lost one. */
const PAYMENT_RETRIES = 5;

interface PaymentInput {
  document_id: string;
  amount: string;
  currency_code: string;
  paid_on: string;
  method: PaymentMethodPayload;
  reference: string | null;
}

/** The payment as its stream holds it after the command, and where read models must reach to show it. */
export interface Recorded {
  payment: Payment;
  position: Position | null;
}

function paymentIn(payments: readonly Payment[], paymentId: string): Payment {
  const payment = payments.find((p) => p.payment_id === paymentId);
  if (!payment) throw new Error(`payment ${paymentId} is not in its stream after its command`);
  return payment;
}

/**
 * POST /payments: money on an invoice (a payment) or a credit note (a refund) of the caller's
 * organisation. The payment's id is the first id the request takes, so a request resumed under
 * its Idempotency-Key names the same payment and the decider records it once. The document is read
 * as its own stream folds it (the write side), beside the payments stream the command appends to.
 */
export async function recordPayment(deps: Deps, request: { actor: Actor; requestId: string; input: PaymentInput }): Promise<Recorded> {
  const paymentId = deps.ids.next();
  const { actor, input } = request;
  const document = await readAndFold(deps.store, invoiceStream(input.document_id), invoiceDecider);
  const handled = await handleCommand(deps, paymentsStream(input.document_id), paymentDecider, {
    type: 'RecordPayment', payment_id: paymentId, document: document.state, scope: { organisationId: actor.organisationId, companyId: null },
    amount: input.amount, currency_code: input.currency_code, paid_on: input.paid_on, method: input.method, reference: input.reference,
    recorded_by: actor.id, at: deps.clock.now().toISOString(),
  }, { metadata: requestMetadata(actor, request.requestId), expected: { retry: { onVersionConflict: PAYMENT_RETRIES } } });
  return { payment: paymentIn(handled.state.payments, paymentId), position: handled.position };
}

/**
 * POST /payments/{id}/reverse. The payment's document is found in the read model (a payment is
 * read there by the request that recorded it before it answers); the reversal itself is decided
 * on the document's payments stream.
 */
export async function reversePayment(deps: Deps, request: { actor: Actor; requestId: string; paymentId: string; reason: string }): Promise<Recorded> {
  const { actor, paymentId } = request;
  const scope = { organisationId: actor.organisationId, companyId: null };
  const known = await getPayment(deps.readModels, scope, paymentId);
  if (!known) throw paymentNotFound();
  const handled = await handleCommand(deps, paymentsStream(known.document_id), paymentDecider, {
    type: 'ReversePayment', payment_id: paymentId, scope, reason: request.reason, reversed_by: actor.id, at: deps.clock.now().toISOString(),
  }, { metadata: requestMetadata(actor, request.requestId), expected: { retry: { onVersionConflict: PAYMENT_RETRIES } } });
  return { payment: paymentIn(handled.state.payments, paymentId), position: handled.position };
}
