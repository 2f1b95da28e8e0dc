import { readFileSync } from 'node:fs';
import { stableUuid } from '../../../commands/shared/stable-id.ts';
import type { RecordedEvent } from '../../../src/platform/eventstore/port.ts';

/*
 * Streams for the webhook catalogue's tests, made of the stored event fixtures (events as the
 * service wrote them): a sent invoice, its received copy at the buyer, a credit note. Changes to
 * a fixture's data are spelled out where a story needs another outcome.
 */

const FIXTURES = new URL('../../fixtures/events/', import.meta.url).pathname;

export const fixture = (type: string): { stream_id: string; type: string; data: Record<string, unknown> } =>
  JSON.parse(readFileSync(`${FIXTURES}${type}.v1.json`, 'utf8')) as { stream_id: string; type: string; data: Record<string, unknown> };

export const SENT_ID = '12182a3c-f7d6-49ef-bb0f-b0d15748a5ae';
export const RECEIVED_ID = 'fc8a817a-ec7e-859d-82c2-a49d4d1fdfb9';
export const CREDIT_NOTE_ID = '7c9d4e63-3d2f-4a1b-8b8d-2e3f4a5b6c7d';

export type Step = string | { type: string; stream?: string; data?: Record<string, unknown> };

/**
 * Records the steps in order, as a store would: a fixture by type (with data changed by `data`),
 * each with its stream's next revision and the next global position. `story` names the events'
 * ids, so two stories give different ids.
 */
export function record(story: string, steps: readonly Step[], startPosition = 0): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return steps.map((step, i) => {
    const { type, stream, data } = typeof step === 'string' ? { type: step, stream: undefined, data: undefined } : step;
    const f = fixture(type);
    const streamId = stream ?? f.stream_id;
    const revision = (revisions.get(streamId) ?? -1) + 1;
    revisions.set(streamId, revision);
    const position = String(startPosition + i + 1).padStart(12, '0');
    return {
      id: stableUuid('webhook-story', story, String(i)), streamId, revision, position, type,
      data: { ...f.data, ...data }, metadata: {}, recordedAt: new Date(Date.parse('2026-11-24T03:26:00Z') + i * 1000),
    };
  });
}

/** The sender's copy (C2): created, validated, queued, FS acknowledged, sent, delivered. */
export const sentInvoice = (story = 'sent') => record(story, [
  'InvoiceCreated', 'InvoiceValidated', 'InvoiceQueued', 'InvoiceAuditEntryRecorded', 'FsCopySubmitted', 'FsCopyAcknowledged',
  'PeppolMessageSent', 'PeppolDeliveryConfirmed',
]);

/** The buyer's copy (C3) of the same message: received, filed, then FS's verdict. */
export const receivedCopy = (verdict: 'FsCopyAcknowledged' | 'FsCopyRejected', story = 'received') => {
  const stream = `invoice-${RECEIVED_ID}`;
  return record(story, [
    'InvoiceReceived',
    { type: 'FsCopySubmitted', stream, data: { invoice_id: RECEIVED_ID, fs_submission_id: 'a3f7c0de-1111-4c3a-9d6e-5b1f2e3d4c5b', tdd_uuid: 'c3c3c3c3-72f6-8cd7-8a8d-362ed45d32af', reporter_role: 'C3' } },
    { type: verdict, stream, data: { invoice_id: RECEIVED_ID, fs_submission_id: 'a3f7c0de-1111-4c3a-9d6e-5b1f2e3d4c5b', tdd_uuid: 'c3c3c3c3-72f6-8cd7-8a8d-362ed45d32af' } },
  ]);
};

export const last = <T>(items: readonly T[]): T => {
  const item = items[items.length - 1];
  if (item === undefined) throw new Error('empty');
  return item;
};
