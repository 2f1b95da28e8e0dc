import { readFileSync } from 'node:fs';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { inStream, projectorSpec } from '../../test/support/projector-given.ts';
import { sapiInbox } from './projector.ts';

const fixture = (type: string): DomainEvent<string, Record<string, unknown>> => {
  const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: Record<string, unknown> };
  return { type: f.type, data: f.data };
};
const received = fixture('SapiInboxDocumentReceived');
const acknowledged = fixture('SapiInboxDocumentAcknowledged');
const stream = `sapi_inbox-${String(received.data.document_id)}`;
const later = { ...acknowledged, data: { ...acknowledged.data, acknowledged_at: '2026-11-25T00:00:00.000Z', acknowledged_by: 'another' } };
const ROWS = `SELECT document_id, status, sender_document_id, payload = $$${String(received.data.payload)}$$ AS same_payload, position <> '' AS positioned,
  acknowledged_at IS NULL AS open, acknowledged_by FROM sapi_inbox_documents`;

describe('SAPI-SK inbox projector', function () {
  this.timeout(120_000); // a fresh database per scenario

  const given = projectorSpec(sapiInbox);

  it('a row per received document, RECEIVED, with its payload and its position (the list\'s keyset)', () =>
    given(inStream(stream, received)).then(ROWS, [
      { document_id: received.data.document_id, status: 'RECEIVED', sender_document_id: 'FA-2026-000001', same_payload: true, positioned: true, open: true, acknowledged_by: null },
    ]));

  it('an acknowledgement marks it ACKNOWLEDGED once: a later one does not move the first', () =>
    given(inStream(stream, received, acknowledged, later)).then(ROWS, [
      { document_id: received.data.document_id, status: 'ACKNOWLEDGED', sender_document_id: 'FA-2026-000001', same_payload: true, positioned: true, open: false, acknowledged_by: 'sapi_9c2d1e0f9a8b7c6d' },
    ]));
});
