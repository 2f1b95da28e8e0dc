import { createHash } from 'node:crypto';
import { decodeCsvFile } from '../../../commands/bulk-import/encoding.ts';
import { bulkImportDecider } from '../../../commands/bulk-import/job.ts';
import { requireFeature } from '../../../commands/limits/plans.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { bulkImportStream } from '../../../events/bulk-import.ts';
import { findOrganisationPlan } from '../../../projections/tenancy/queries.ts';
import { companyOf, type Lookups } from '../invoices/index.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import type { Core } from '../../platform/core.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import type { Upload } from './upload.ts';
import { codeListsOf } from './worker.ts';
import type { CodeLists } from '../../../commands/invoices/code-lists.ts';

export type EnqueueDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels'> & { lookups: Lookups; codeLists: CodeLists | null };

/** The plan gate of bulk import (403 feature_not_available), on the organisation's plan now, whatever plan a token was issued under. */
export async function requireBulkImport(deps: Pick<Core, 'readModels'>, actor: Actor): Promise<void> {
  requireFeature(await findOrganisationPlan(deps.readModels, actor.organisationId), 'bulk_import');
}

/**
 * Makes a job of an uploaded file: the request and the file's text in one append to the job's new
 * stream. A file that is not UTF-8 text still makes a job, already failed, so every problem with
 * a file's content is answered the same way: by the job's status and its row errors.
 */
export async function enqueueImport(
  deps: EnqueueDeps,
  request: { actor: Actor; requestId: string; companyId: string; upload: Upload },
): Promise<{ jobId: string; position: Position }> {
  const { actor, upload } = request;
  await requireBulkImport(deps, actor);
  const company = await companyOf(deps, actor, request.companyId);
  codeListsOf(deps); // 503 code_lists_unavailable, as POST …/invoices answers: no invoice could be checked
  if (upload.bytes.length === 0) throw new DomainError('file_empty', 'the file is empty: send the CSV with its header row');
  const jobId = deps.ids.next();
  const decoded = decodeCsvFile(upload.bytes);
  const handled = await handleCommand(deps, bulkImportStream(jobId), bulkImportDecider, {
    type: 'RequestImport',
    request: {
      job_id: jobId, organisation_id: actor.organisationId, company_id: company.id,
      requested_by: { type: actor.type, id: actor.id, role: actor.role }, file_name: upload.fileName, size_bytes: upload.bytes.length,
      sha256: createHash('sha256').update(upload.bytes).digest('hex'), requested_at: deps.clock.now().toISOString(),
    },
    ...('text' in decoded ? { text: decoded.text } : { text: null, unreadable: decoded.error }),
  }, { metadata: requestMetadata(actor, request.requestId), expected: { newStream: true } });
  if (handled.position === null) throw new Error(`bulk import ${jobId}: nothing was written`);
  return { jobId, position: handled.position };
}
