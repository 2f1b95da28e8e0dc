import { invoiceDecider } from '../../../commands/invoices/decider.ts';
import { formatMoney } from '../../../commands/invoices/money.ts';
import type { InvoiceState } from '../../../commands/invoices/state.ts';
import { paymentDecider, paymentNotFound, recordedTotal, type Payment, type PaymentCommand } from '../../../commands/payments/decider.ts';
import { creditNoteFacts, type InvoiceFacts } from '../../../commands/payments/settlement.ts';
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

/** The payments (or refunds) in one document's stream, as the store holds them now. */
const paymentsOf = async (deps: Deps, documentId: string): Promise<Payment[]> =>
  (await readAndFold(deps.store, paymentsStream(documentId), paymentDecider)).state.payments;

/**
 * The invoice a credit note credits, as its streams hold it now: its payable, its credit notes,
 * the payments on it and the refunds on each of the others (the credit note's own are the state of
 * the stream the refund is decided on). Null for any other document, or an invoice not held here.
 */
async function creditedInvoiceFacts(deps: Deps, document: InvoiceState): Promise<InvoiceFacts | null> {
  if (document.status === 'none' || !document.credited_invoice) return null;
  const invoiceId = document.credited_invoice.invoice_id;
  const invoice = (await readAndFold(deps.store, invoiceStream(invoiceId), invoiceDecider)).state;
  if (invoice.status === 'none') return null;
  const others = invoice.credit_notes.filter((c) => c.credit_note_id !== document.invoice_id);
  const [payments, ...refunds] = await Promise.all([invoiceId, ...others.map((c) => c.credit_note_id)].map((id) => paymentsOf(deps, id)));
  const refunded = new Map(others.map((c, i) => [c.credit_note_id, formatMoney(recordedTotal(refunds[i] ?? [], 'refund'))]));
  return {
    invoice_id: invoiceId, total_gross: invoice.totals.amount_due, paid: formatMoney(recordedTotal(payments ?? [], 'payment')),
    credit_notes: invoice.credit_notes.map((c) => creditNoteFacts(c, refunded.get(c.credit_note_id) ?? '0.00')),
  };
}

/**
 * POST /payments: money on an invoice (a payment) or a credit note (a refund) of the caller's
 * organisation. The payment's id is the first id the request takes, so a request resumed under
 * its Idempotency-Key names the same payment and the decider records it once. The document (and,
 * for a credit note, its invoice's side of the refund cap) is read as its own streams fold it (the
 * write side), beside the payments stream the command appends to, again for each attempt: a race
 * lost to another payment of the document is decided again on what both then hold.
 */
export async function recordPayment(deps: Deps, request: { actor: Actor; requestId: string; input: PaymentInput }): Promise<Recorded> {
  const paymentId = deps.ids.next();
  const { actor, input } = request;
  const at = deps.clock.now().toISOString();
  const command = async (): Promise<PaymentCommand> => {
    const document = (await readAndFold(deps.store, invoiceStream(input.document_id), invoiceDecider)).state;
    return {
      type: 'RecordPayment', payment_id: paymentId, document, credited_invoice: await creditedInvoiceFacts(deps, document),
      scope: { organisationId: actor.organisationId, companyId: null }, amount: input.amount, currency_code: input.currency_code, paid_on: input.paid_on,
      method: input.method, reference: input.reference, recorded_by: actor.id, at,
    };
  };
  const handled = await handleCommand(deps, paymentsStream(input.document_id), paymentDecider, command, {
    metadata: requestMetadata(actor, request.requestId), expected: { retry: { onVersionConflict: PAYMENT_RETRIES } },
  });
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
