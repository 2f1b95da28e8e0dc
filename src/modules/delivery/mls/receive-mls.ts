import { mlsReceivedDecider, mlsReceivedStream } from '../../../../commands/mls/received.ts';
import type { MlsReceived } from '../../../../events/mls.ts';
import { findSentInvoiceByMessage } from '../../../../projections/invoices/queries.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { PeppolRejectedError } from '../peppol/peppol-network.ts';
import type { SbdhEnvelope } from '../peppol/sbdh-model.ts';
import { decideOnInvoice, systemMetadata } from '../../invoices/index.ts';
import { readMls, type MessageLevelStatus } from '../../mls/index.ts';

/** Something else we send over Peppol that an MLS may answer (SAPI-SK documents, Peppol reports): true when it matched. */
export type MlsMatcher = (mls: MessageLevelStatus, receivedAt: string) => Promise<{ kind: 'sapi_document' | 'report'; id: string; applied: boolean } | null>;

/**
 * Our Access Point as corner 2: an MLS came back for something we sent. It is matched by the SBDH
 * instance identifier it references: an invoice's Peppol message becomes delivered (AP, AB) or
 * rejected with the reasons (RE); the other matchers try SAPI-SK documents and reports. Whatever
 * it matched, or if nothing, it is kept (MlsReceived); one that changes nothing (a second MLS, a
 * late one) is kept as a repeat. An MLS is never answered with an MLS (OP-MLS-03): one we cannot
 * read is refused at the transport, like any unreadable message.
 */
export async function receiveMls(deps: Pick<Core, 'store' | 'ids' | 'readModels' | 'clock'> & { matchers?: MlsMatcher[] }, envelope: SbdhEnvelope): Promise<MlsReceived['data']['matched']> {
  let mls: MessageLevelStatus;
  try {
    mls = readMls(envelope.document);
  } catch (error) {
    throw new PeppolRejectedError(`the Message Level Status cannot be read: ${(error as Error).message}`);
  }
  const at = deps.clock.now().toISOString();
  const metadata = systemMetadata('mls-received', envelope.instanceId);
  let matched: MlsReceived['data']['matched'] = null;
  let repeat = false;
  const invoice = await findSentInvoiceByMessage(deps.readModels, mls.referenced_instance_id);
  if (invoice) {
    const handled = await decideOnInvoice(deps, invoice.id, {
      type: 'ApplyMls', invoice_id: invoice.id, peppol_message_id: mls.referenced_instance_id, mls_id: mls.id, response_code: mls.response_code,
      description: mls.description, issues: mls.issues, received_at: at,
    }, metadata);
    matched = { kind: 'invoice', id: invoice.id };
    repeat = handled.events.length === 0;
  } else {
    for (const match of deps.matchers ?? []) {
      const found = await match(mls, at);
      if (!found) continue;
      matched = { kind: found.kind, id: found.id };
      repeat = !found.applied;
      break;
    }
  }
  await handleCommand(deps, mlsReceivedStream(envelope.instanceId), mlsReceivedDecider, {
    type: 'RecordMlsReceived', message_id: envelope.instanceId, mls_id: mls.id, sender: mls.sender, referenced_instance_id: mls.referenced_instance_id,
    response_code: mls.response_code, description: mls.description, issues: mls.issues, matched, repeat, at,
  }, { metadata, expected: { retry: { onVersionConflict: 3 } } });
  return matched;
}
