import { readFileSync } from 'node:fs';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { inStream, projectorSpec } from '../../test/support/projector-given.ts';
import { sapiDocuments } from './projector.ts';

const fixture = (type: string): DomainEvent<string, Record<string, unknown>> => {
  const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: Record<string, unknown> };
  return { type: f.type, data: f.data };
};
const accepted = fixture('SapiDocumentAccepted');
const stream = `sapi_document-${String(accepted.data.document_id)}`;
const ROWS = `SELECT provider_document_id, client_id, version, view->>'status' AS status, view->'fs'->>'status' AS fs_status, view->'fs'->>'report_deadline' AS deadline,
  view ? 'payload' AS has_payload FROM sapi_documents`;

describe('sapi-documents projector', function () {
  this.timeout(120_000);
  const given = projectorSpec(sapiDocuments);

  it('one row per document, at its revision, folded with the decider (no payload kept)', async () => {
    await given(inStream(stream, accepted)).then(ROWS, [
      { provider_document_id: accepted.data.provider_document_id, client_id: accepted.data.client_id, version: 0, status: 'ACCEPTED', fs_status: 'NOT_SUBMITTED', deadline: '2026-11-25', has_payload: false },
    ]);
    await given(inStream(stream, accepted, fixture('SapiDocumentProcessing'), fixture('SapiDocumentSent'), fixture('SapiFsSubmitted'), fixture('SapiFsAcknowledged'))).then(ROWS, [
      { provider_document_id: accepted.data.provider_document_id, client_id: accepted.data.client_id, version: 4, status: 'SENT', fs_status: 'ACKNOWLEDGED', deadline: '2026-11-25', has_payload: false },
    ]);
  });

  it('keeps the receiving Access Point\'s MLS beside the status: null until one came', async () => {
    const MLS = `SELECT view->>'status' AS status, view->'mls'->>'response_code' AS code, jsonb_array_length(view->'mls'->'issues') AS reasons,
      view->>'updated_at' AS updated_at, view->'mls' = 'null'::jsonb AS none FROM sapi_documents`;
    await given(inStream(stream, accepted, fixture('SapiDocumentProcessing'), fixture('SapiDocumentSent'))).then(MLS, [
      { status: 'SENT', code: null, reasons: null, updated_at: String(fixture('SapiDocumentSent').data.sent_at), none: true },
    ]);
    const mls = fixture('SapiDocumentMlsReceived');
    await given(inStream(stream, accepted, fixture('SapiDocumentProcessing'), fixture('SapiDocumentSent'), mls)).then(MLS, [
      { status: 'SENT', code: 'RE', reasons: 1, updated_at: String(mls.data.received_at), none: false },
    ]);
  });
});
