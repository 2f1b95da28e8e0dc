import { sapiDocumentDecider } from '../../../../commands/sapi/document.ts';
import { sapiDocumentStream } from '../../../../events/sapi-documents.ts';
import { sapiDocumentIdByMessage } from '../../../../projections/sapi-documents/queries.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import type { MlsMatcher } from '../../delivery/index.ts';
import { systemMetadata } from '../../invoices/index.ts';
import { documentWritten, heldDocument } from './held.ts';

/** A document's stream may be written by its Peppol and FS steps at the same moment: decided again on a lost race. */
const RETRIES = 20;

/**
 * An MLS that reached our Access Point may answer a SAPI-SK document we sent: it names the
 * document's Peppol message (the SBDH instance identifier fixed at acceptance). The document
 * keeps it beside its status (commands/sapi/document.ts: its own message only, the first only);
 * `applied` is false when it changed nothing. No document sent as that message: null, so the
 * receiving side tries the next matcher or keeps the MLS as unmatched.
 */
export function sapiMlsMatcher(deps: Pick<Core, 'store' | 'ids' | 'readModels' | 'clock'>): MlsMatcher {
  return async (mls, receivedAt) => {
    // the document's row is written at acceptance (the send waits for it), long before its message can be answered
    const documentId = await sapiDocumentIdByMessage(deps.readModels, mls.referenced_instance_id);
    if (!documentId) return null;
    const known = heldDocument(deps.store, documentId);
    const handled = await handleCommand(deps, sapiDocumentStream(documentId), sapiDocumentDecider, {
      type: 'ApplySapiMls', peppol_message_id: mls.referenced_instance_id, mls_id: mls.id, response_code: mls.response_code, description: mls.description,
      issues: mls.issues, received_at: receivedAt,
    }, { metadata: systemMetadata('sapi-mls-received', mls.id), expected: known ? { known, retry: { onVersionConflict: RETRIES } } : { retry: { onVersionConflict: RETRIES } } });
    documentWritten(deps.store, documentId, handled);
    return { kind: 'sapi_document', id: documentId, applied: handled.events.length > 0 };
  };
}
