import type { SapiFsAcknowledged, SapiFsRejected } from '../../../../events/sapi-documents.ts';
import { companyStream, type CompanyRegistered } from '../../../../events/tenancy.ts';
import type { EventStore, RecordedEvent } from '../../../platform/eventstore/port.ts';
import { domainEvent } from '../../../platform/handling/read-and-fold.ts';
import { fsVerdictEvent, type WebhookEventOut } from './envelopes.ts';

/** The domain events of a SAPI-SK document (no mirror invoice) that raise an FS verdict webhook. */
const C5_SUBMISSION_SOURCES = ['SapiFsAcknowledged', 'SapiFsRejected'] as const;

export const isC5SubmissionSource = (type: string): boolean => (C5_SUBMISSION_SOURCES as readonly string[]).includes(type);

/**
 * invoice.fs_acknowledged / invoice.fs_rejected for a document sent through SAPI-SK: resource.type
 * `c5_submission` named by its provider document id, invoice_id and supplier_vat_id null (native
 * spec, Events). The verdict event carries everything but the company's workspace, which the
 * company's first event fixes for good (workspace endpoints must hear their companies' documents).
 */
export async function c5SubmissionEvents(store: Pick<EventStore, 'readStream'>, source: RecordedEvent): Promise<WebhookEventOut[]> {
  if (!isC5SubmissionSource(source.type)) return [];
  const event = domainEvent<SapiFsAcknowledged | SapiFsRejected>(source);
  const d = event.data;
  const [registered] = await store.readStream(companyStream(d.company_id));
  const workspaceId = registered?.type === 'CompanyRegistered' ? domainEvent<CompanyRegistered>(registered).data.workspace_id : null;
  const subject = {
    organisation_id: d.organisation_id, company_id: d.company_id, workspace_id: workspaceId, invoice_id: null, invoice_number: d.invoice_number,
    direction: d.direction, supplier_vat_id: null, provider_document_id: d.provider_document_id, reporter_role: d.reporter_role,
  };
  return [fsVerdictEvent(source.id, subject, event.type === 'SapiFsAcknowledged'
    ? { state: 'acknowledged', tdd_uuid: d.tdd_uuid, mls_response_code: d.mls_response_code, at: event.data.acknowledged_at, reasons: null }
    : { state: 'rejected', tdd_uuid: d.tdd_uuid, mls_response_code: d.mls_response_code, at: event.data.rejected_at, reasons: event.data.reasons })];
}
