import { mlsReceivedDecider, mlsReceivedStream } from '../../../../commands/mls/received.ts';
import type { MlsReceived } from '../../../../events/mls.ts';
import { findInvoicesAnsweredBy } from '../../../../projections/invoices/queries.ts';
import { rejectionReasons } from '../../../../commands/mls/answer.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { PeppolRejectedError } from '../peppol/peppol-network.ts';
import type { SbdhEnvelope } from '../peppol/sbdh-model.ts';
import { decideOnInvoice, systemMetadata } from '../../invoices/index.ts';
import { readMls, type MessageLevelStatus } from '../../mls/index.ts';
import type { Attempt } from '../inbound-read.ts';

/** How long an MLS that matches nothing yet is matched again, and how often. */
const MATCH_WAIT_MS = 5_000;
const MATCH_AGAIN_MS = 200;

type Matched = { matched: MlsReceived['data']['matched']; repeat: boolean };

/** Applies the MLS to what it answers: an invoice's Peppol message, an invoice's TDD, else what the matchers know. */
async function match(deps: Parameters<typeof receiveMls>[0], mls: MessageLevelStatus, at: string, metadata: ReturnType<typeof systemMetadata>): Promise<Matched> {
  const answered = await findInvoicesAnsweredBy(deps.readModels, mls.referenced_instance_id);
  const invoice = answered.sent;
  const filed = invoice ? null : answered.filed;
  if (filed) {
    // corner 5's verdict on a tax data document we filed (the sender's copy, C2, or the receiver's, C3)
    const handled = await decideOnInvoice(deps, filed.id, {
      type: 'RecordFsVerdict', invoice_id: filed.id, fs_submission_id: mls.referenced_instance_id, verdict: mls.response_code === 'RE' ? 'rejected' : 'acknowledged',
      tdd_uuid: mls.referenced_instance_id, mls_response_code: mls.response_code, reasons: mls.response_code === 'RE' ? rejectionReasons(mls.description, mls.issues) : null, at,
    }, metadata);
    return { matched: { kind: 'fs_filing', id: filed.id }, repeat: handled.events.length === 0 };
  }
  if (invoice) {
    const handled = await decideOnInvoice(deps, invoice.id, {
      type: 'ApplyMls', invoice_id: invoice.id, peppol_message_id: mls.referenced_instance_id, mls_id: mls.id, response_code: mls.response_code,
      description: mls.description, issues: mls.issues, received_at: at,
    }, metadata);
    return { matched: { kind: 'invoice', id: invoice.id }, repeat: handled.events.length === 0 };
  }
  for (const matcher of deps.matchers ?? []) {
    const found = await matcher(mls, at);
    if (found) return { matched: { kind: found.kind, id: found.id }, repeat: !found.applied };
  }
  return { matched: null, repeat: false };
}

/** Something else we send over Peppol that an MLS may answer (SAPI-SK documents, Peppol reports): true when it matched. */
export type MlsMatcher = (mls: MessageLevelStatus, receivedAt: string) => Promise<{ kind: 'sapi_document' | 'sapi_fs_filing' | 'report'; id: string; applied: boolean } | null>;

/**
 * Our Access Point as corner 2: an MLS came back for something we sent. It is matched by the SBDH
 * instance identifier it references: an invoice's Peppol message becomes delivered (AP, AB) or
 * rejected with the reasons (RE); the other matchers try SAPI-SK documents and reports. Whatever
 * it matched, or if nothing, it is kept (MlsReceived); one that changes nothing (a second MLS, a
 * late one) is kept as a repeat. An MLS is never answered with an MLS (OP-MLS-03): one we cannot
 * read is refused at the transport, like any unreadable message.
 */
export async function receiveMls(
  deps: Pick<Core, 'store' | 'ids' | 'readModels' | 'clock'> & { matchers?: MlsMatcher[] },
  envelope: SbdhEnvelope,
  /** the MLS as read with its envelope (inbound-read.ts); else read from envelope.document */
  read?: Attempt<MessageLevelStatus>,
): Promise<MlsReceived['data']['matched']> {
  let mls: MessageLevelStatus;
  try {
    if (read && 'error' in read) throw read.error;
    mls = read ? read.read : readMls(envelope.document);
  } catch (error) {
    throw new PeppolRejectedError(`the Message Level Status cannot be read: ${(error as Error).message}`);
  }
  const at = deps.clock.now().toISOString();
  const metadata = systemMetadata('mls-received', envelope.instanceId);
  // what we sent becomes known to the read models a moment after it is written (longer while they catch up after a
  // restart, and a SAPI-SK filing's id only once recorded): an MLS that matches nothing is matched again for a
  // few seconds before it is kept as matching nothing
  let found = await match(deps, mls, at, metadata);
  for (const waitedUntil = Date.now() + MATCH_WAIT_MS; found.matched === null && Date.now() < waitedUntil;) {
    await new Promise((resolve) => setTimeout(resolve, MATCH_AGAIN_MS));
    found = await match(deps, mls, at, metadata);
  }
  const { matched, repeat } = found;
  // an MLS arrives once as a rule: decided on no stream, without reading it; a repeat's append conflicts and is decided on the stream as read
  await handleCommand(deps, mlsReceivedStream(envelope.instanceId), mlsReceivedDecider, {
    type: 'RecordMlsReceived', message_id: envelope.instanceId, mls_id: mls.id, sender: mls.sender, referenced_instance_id: mls.referenced_instance_id,
    response_code: mls.response_code, description: mls.description, issues: mls.issues, matched, repeat, at,
  }, { metadata, expected: { known: { state: mlsReceivedDecider.initialState, revision: -1 }, retry: { onVersionConflict: 3 } } });
  return matched;
}
