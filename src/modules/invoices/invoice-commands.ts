import { invoiceDecider, type InvoiceCommand, type InvoiceState } from '../../../commands/invoices/decider.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { EventMetadata } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { streamInTurn } from '../../platform/handling/stream-in-turn.ts';
import type { Core } from '../../platform/core.ts';

type Deps = Pick<Core, 'store' | 'ids'>;

/** Metadata of what the service does by itself (reactors, network callbacks). */
export function systemMetadata(component: string, causationId?: string): EventMetadata {
  return { causationId, correlationId: causationId, actor: { type: 'system', id: component } };
}

/** How often a command on an invoice stream is decided again after losing a race (no If-Match). */
export const INVOICE_RETRIES = 20;

/**
 * Runs a command on an invoice stream without a client's If-Match: the two delivery legs, the
 * network callbacks and the client all write to one stream, so a lost race is decided again on
 * the newer state (outcome decisions are idempotent, so a repeat decides nothing).
 */
export async function decideOnInvoice(
  deps: Deps, invoiceId: string, command: InvoiceCommand, metadata: EventMetadata, beforeAppend?: () => Promise<void>,
) {
  return handleCommand(deps, invoiceStream(invoiceId), invoiceDecider, command, { metadata, beforeAppend, expected: { retry: { onVersionConflict: INVOICE_RETRIES } } });
}

/**
 * decideOnInvoice for a reaction's steps on an invoice it read (`read`): each decided on the state
 * the previous step left, so the stream is read once (streamInTurn).
 */
export function invoiceInTurn(deps: Deps, invoiceId: string, metadata: EventMetadata, read: { state: InvoiceState; revision: number }) {
  return streamInTurn(deps, invoiceStream(invoiceId), invoiceDecider, read, { metadata, retry: { onVersionConflict: INVOICE_RETRIES } });
}
