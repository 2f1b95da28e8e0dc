import { invoiceDecider } from '../../commands/invoices/decider.ts';
import { stableUuid } from '../../commands/shared/stable-id.ts';
import { invoiceStream } from '../../events/invoices.ts';
import { findCompanyByParticipant } from '../../projections/tenancy/queries.ts';
import { handleCommand } from '../handling/command-handler.ts';
import { PeppolRejectedError, type OutboundPeppolMessage } from '../network/peppol-network.ts';
import { readSbdh } from '../network/peppol/sbdh.ts';
import type { Core } from '../core.ts';
import { readUbl } from '../ubl/index.ts';
import { systemMetadata } from './invoice-commands.ts';

/**
 * Our Access Point's receiving side: a Peppol message for a company of this service becomes an
 * inbound invoice of that company, built from the delivered UBL alone (never from the sender's
 * JSON). The inbound copy's id is derived from the company and the message id, so the same
 * message received twice (a sender retrying after a lost receipt) is one invoice.
 * A message we cannot read, or for a participant we do not serve, is rejected for good
 * (PeppolRejectedError: the receiving Access Point's answer, which the sender records as invoice.rejected).
 */
export async function receivePeppolMessage(deps: Pick<Core, 'store' | 'ids' | 'readModels' | 'clock'>, message: OutboundPeppolMessage): Promise<{ invoice_id: string }> {
  let envelope;
  let document;
  try {
    envelope = readSbdh(message.envelope);
    document = readUbl(envelope.document);
  } catch (error) {
    throw new PeppolRejectedError(`the receiving Access Point refused the message: ${(error as Error).message}`);
  }
  const company = await findCompanyByParticipant(deps.readModels, envelope.receiver);
  if (!company) throw new PeppolRejectedError(`participant ${envelope.receiver} is not served by this Access Point`);
  const invoiceId = stableUuid('peppol-inbound', company.id, envelope.instanceId);
  await handleCommand(deps, invoiceStream(invoiceId), invoiceDecider, {
    type: 'ReceiveInvoice', invoice_id: invoiceId, organisation_id: company.organisation_id, company_id: company.id,
    workspace_id: company.workspace_id, source: 'peppol', peppol_message_id: envelope.instanceId, sender_participant_id: envelope.sender,
    receiver_participant_id: envelope.receiver, document_type_id: envelope.documentTypeId, provider_document_id: null,
    invoice_number: document.content.invoice_number, supplier_vat_id: document.content.supplier.vat_id,
    content: document.content, totals: document.totals, ubl: envelope.document, received_at: deps.clock.now().toISOString(),
  }, { metadata: systemMetadata('peppol-inbound', envelope.instanceId) });
  return { invoice_id: invoiceId };
}
