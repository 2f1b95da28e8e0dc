import { invoiceDecider, type InvoiceCommand } from '../../../commands/invoices/decider.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { EventMetadata, Position } from '../../platform/eventstore/port.ts';
import { handleCommand, ifMatchOr } from '../../platform/handling/command-handler.ts';
import type { FsAuthority } from './fs/fs-authority.ts';
import type { PeppolNetwork } from './peppol/peppol-network.ts';
import type { UsageCounts } from '../usage/index.ts';
import { INVOICE_RETRIES } from '../invoices/index.ts';
import type { InvoiceDeps } from '../invoices/index.ts';
import { sendWaitingCreditNote } from '../credit-notes/index.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { countInvoice } from '../usage/index.ts';

export type DeliveryDeps = InvoiceDeps & { network: PeppolNetwork; fs: FsAuthority; usage: UsageCounts };

interface ClientRequest {
  actor: Actor;
  requestId: string;
  /** the company of the route: another company's invoice is not found (the decider's access rule) */
  companyId: string;
  invoiceId: string;
  /** If-Match, when the client sent one (412 when stale) */
  expectedVersion?: number;
}

const scopeOf = (request: ClientRequest) => ({ organisationId: request.actor.organisationId, companyId: request.companyId });

/**
 * A client's command that issues an invoice (send, mark-sent): at the version it named, or decided
 * again on the newest state when it named none. Only once the decider has accepted it (so an
 * invoice the caller may not see is 404 first) are `ready` asked and the invoice counted against
 * the monthly quota (402); either refusing writes nothing.
 */
async function issueForClient(
  deps: DeliveryDeps, request: ClientRequest, command: Extract<InvoiceCommand, { type: 'SendInvoice' | 'MarkSent' }>, metadata: EventMetadata, ready?: () => Promise<void>,
): Promise<{ status: string; position: Position | null }> {
  const beforeAppend = async () => {
    await ready?.();
    await countInvoice(deps, { organisationId: request.actor.organisationId, invoiceId: request.invoiceId, source: 'api' }, metadata);
  };
  // a credit note that waited (a void's draft, an approved one) counts against its invoice as it leaves
  const waiting = await sendWaitingCreditNote(deps, {
    creditNoteId: request.invoiceId, scope: scopeOf(request), expectedVersion: request.expectedVersion, metadata, beforeAppend,
    command: { delivery: command, code_lists: deps.codeLists, sent_by: request.actor.id, at: command.at },
  });
  if (waiting) return waiting;
  const handled = await handleCommand(deps, invoiceStream(request.invoiceId), invoiceDecider, command, {
    metadata, beforeAppend, expected: ifMatchOr(request.expectedVersion, { retry: { onVersionConflict: INVOICE_RETRIES } }),
  });
  return { status: handled.state.status, position: handled.position };
}

/** Our outbound gateways, asked before a send is written: one that cannot take messages now is a 502. */
async function gatewaysReady(deps: DeliveryDeps): Promise<void> {
  try {
    await deps.network.ready();
  } catch (error) {
    throw new DomainError('peppol_delivery_failed', `the Peppol network cannot take messages now (${(error as Error).message}); nothing was queued, retry the send`);
  }
  try {
    await deps.fs.ready();
  } catch (error) {
    throw new DomainError('fs_submission_failed', `the FS filing gateway cannot take documents now (${(error as Error).message}); nothing was queued, retry the send`);
  }
}

/**
 * POST send. Once the decider accepts it, our outbound gateways are asked: when one cannot take
 * messages now, the answer is 502 (peppol_delivery_failed / fs_submission_failed), nothing is
 * queued and the send is safe to retry. Otherwise the invoice is queued once: of two concurrent
 * sends one queues and the other sees the queued invoice (409 invalid_status).
 */
export async function sendInvoice(deps: DeliveryDeps, request: ClientRequest): Promise<{ status: string; position: Position | null }> {
  const handled = await issueForClient(deps, request, {
    type: 'SendInvoice', invoice_id: request.invoiceId, scope: scopeOf(request), queued_by: request.actor.id,
    peppol_message_id: deps.ids.next(), code_lists: deps.codeLists, at: deps.clock.now().toISOString(),
  }, requestMetadata(request.actor, request.requestId), () => gatewaysReady(deps));
  return { status: handled.status, position: handled.position };
}

/** Mark-sent: the invoice reached the buyer outside Peppol (e-mail, paper); it becomes delivered, nothing is sent. */
export async function markInvoiceSent(
  deps: DeliveryDeps,
  request: ClientRequest & { deliveredAt: string | null; note: string | null },
): Promise<{ position: Position | null }> {
  const at = deps.clock.now().toISOString();
  const handled = await issueForClient(deps, request, {
    type: 'MarkSent', invoice_id: request.invoiceId, scope: scopeOf(request), marked_by: request.actor.id,
    delivered_at: request.deliveredAt ?? at, note: request.note, at,
  }, requestMetadata(request.actor, request.requestId));
  return { position: handled.position };
}
