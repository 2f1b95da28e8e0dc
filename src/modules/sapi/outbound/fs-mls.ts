import { rejectionReasons } from '../../../../commands/mls/answer.ts';
import { sapiDocumentDecider } from '../../../../commands/sapi/document.ts';
import { sapiDocumentStream } from '../../../../events/sapi-documents.ts';
import { sapiDocumentIdByFsSubmission } from '../../../../projections/sapi-documents/queries.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import type { MlsMatcher } from '../../delivery/index.ts';
import { systemMetadata } from '../../invoices/index.ts';
import { documentWritten, heldDocument } from './held.ts';

/**
 * Corner 5's MLS on a SAPI-SK document's tax data document (its C2 filing): AP or AB acknowledges
 * it, RE rejects it with the reasons (fs.status ACKNOWLEDGED / FAILED, as the verdict did before
 * the TDD travelled over Peppol). A second MLS changes nothing.
 */
export function sapiFsMlsMatcher(deps: Pick<Core, 'store' | 'ids' | 'readModels'>): MlsMatcher {
  return async (mls, receivedAt) => {
    const documentId = await sapiDocumentIdByFsSubmission(deps.readModels, mls.referenced_instance_id);
    if (!documentId) return null;
    const rejected = mls.response_code === 'RE';
    const known = heldDocument(deps.store, documentId);
    const handled = await handleCommand(deps, sapiDocumentStream(documentId), sapiDocumentDecider, {
      type: 'RecordSapiFsVerdict', fs_submission_id: mls.referenced_instance_id, outcome: rejected ? 'rejected' : 'acknowledged', tdd_uuid: mls.referenced_instance_id,
      mls_response_code: mls.response_code, at: receivedAt,
      reasons: rejected ? rejectionReasons(mls.description, mls.issues) : null,
    }, { metadata: systemMetadata('sapi-fs-mls', mls.id), expected: known ? { known, retry: { onVersionConflict: 20 } } : { retry: { onVersionConflict: 20 } } });
    documentWritten(deps.store, documentId, handled);
    return { kind: 'sapi_fs_filing', id: documentId, applied: handled.events.length > 0 };
  };
}
